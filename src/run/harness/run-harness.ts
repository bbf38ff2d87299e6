import { writePlanFile } from '../../run-dir/index.js';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { BuilderIdentity, DataFile, RunFile } from '../../artifacts/index.js';
import { describeCostSet } from '../../plan/index.js';

import { createFileDigests } from '../../shared/file-digests.js';
import { createLogger, type Logger } from '../../shared/logger.js';
import {
  dispatchQueues,
  runBootstrap,
  toBuildxExecutorOptions,
  toInterruptedOutcomes,
} from './dispatch/index.js';
import { finalizeRun, type FinalizedRun } from './finalize/index.js';
import {
  createInitialRun,
  createRunDirGuard,
  createRunFileWriter,
  describeUnwritten,
  type RunDirGuard,
  type RunFileWriter,
} from './record/index.js';
import { createDefaultEffects, type HarnessEffects } from './harness-effects.js';
import {
  acquireRunLock,
  loadRunContext,
  type LoadRunContextOptions,
  type RunContext,
  type RunLock,
} from './context/index.js';
import type { SettledOutcome } from './queues/index.js';
import { runPreflight } from './preflight/index.js';
import { createProgress, type Progress } from './progress/index.js';
import { createBuildxExecutor } from '../executors/index.js';
import { startMeasured, type MeasuredResources } from './measure/index.js';
import { errorMessage } from '../../shared/error-message.js';

// cold, warm and bench: load → preflight → bootstrap → measured run → finalize, each a named step.

export type { HarnessEffects } from './harness-effects.js';

/** The run context's options (harness, fleet, flags, root, strategy, plan, dispatch, env) plus the shell's own. */
export interface RunHarnessOptions extends Omit<LoadRunContextOptions, 'clock' | 'runBakePrint'> {
  /** Aborted with the signal name ('SIGINT', 'SIGTERM') as its reason. */
  signal: AbortSignal;
  /** The ssh agent's socket for every ssh link (SSH_AUTH_SOCK, read by the command layer); undefined: none. */
  sshAgent: string | undefined;
  /** Where the registry credentials are: DOCKER_CONFIG, else ~/.docker (resolved by the command, toHarnessEnv). */
  dockerConfigDir: string;
  /** `--sample-interval-ms` (its default is the flag table's): node samples, and the RUN step cgroup polls. */
  sampleIntervalMs: number;
  /** How often the followed cache logs are read (the command's HARNESS_LOG_POLL_INTERVAL_MS). */
  logPollIntervalMs: number;
  /** Level of the log events echoed on stderr (`--log-level`); run.log gets every event at debug level. */
  logLevel: string;
  effects?: Partial<HarnessEffects>;
  /**
   * Called once the run is finalized (run.json and the report written), also when an error stopped the run and is
   * rethrown after: the command's end-of-run summary (docs/summary.md).
   */
  onFinalized?: (result: HarnessResult) => Promise<void> | void;
}

export interface HarnessResult {
  runDir: string;
  exitCode: number;
  run: RunFile;
  /** The report's data.json model; undefined when the report could not be written. */
  model: DataFile | undefined;
}

/** The phases after preflight, each value named. */
interface RunPhasesOptions {
  context: RunContext;
  effects: HarnessEffects;
  guard: RunDirGuard;
  logger: Logger;
  progress: Progress;
  runFile: RunFileWriter;
  /** Ctrl-C (runBuilds gets it joined with the guard's: the first write the run dir refuses). */
  signal: AbortSignal;
  onFinalized: RunHarnessOptions['onFinalized'];
  bootstrapTargets: readonly string[];
  sampleIntervalMs: number;
  logPollIntervalMs: number;
}

interface BuildPhases {
  resources: MeasuredResources | undefined;
  /** Each node's builder as the measured run found it (docs/cache-debug.md, "Builder identity"). */
  identities?: Map<string, BuilderIdentity>;
  outcomes: Record<string, SettledOutcome>;
  /** What stopped the run, when something was thrown; finalize records it, then it is rethrown. */
  failure?: { error: unknown };
}

/** Bootstrap, then the measured run; never throws: an error comes back as `failure` for finalize to record. */
async function runBuilds(options: RunPhasesOptions): Promise<BuildPhases> {
  const { context, effects, logger, progress, runFile, guard, signal } = options;
  const phases: BuildPhases = { resources: undefined, outcomes: {} };
  try {
    progress.phase('bootstrap');
    const bootstrapped = await runBootstrap({
      context,
      clock: effects.clock,
      targets: options.bootstrapTargets,
      bake: effects.bake,
      signal,
      logger,
      onTarget: (target, node) =>
        progress.note(`bootstrap: building ${target} on ${node} (warm, pushed, not sampled)`),
    });
    await runFile.update((run) => {
      run.bootstrapped = bootstrapped.map((build) => build.target);
      run.bootstrap = bootstrapped;
    });
    if (signal.aborted) return { ...phases, outcomes: toInterruptedOutcomes(context) };
    phases.identities = await effects.readBuilderIdentities(
      context.config.nodes,
      context.config.buildx?.path,
    );
    progress.phase(`measured run: ${context.harness} into ${context.settings.namespace}`);
    await runFile.update((run) => void (run.measuredStartedAtMs = effects.clock.nowMs()));
    phases.resources = await startMeasured(options);
    const executor = createBuildxExecutor({
      ...toBuildxExecutorOptions(context),
      bake: effects.bake,
      findFailedBuild: effects.findFailedBuild,
      logger,
      onWriteError: (file, error) => void guard.fail(file, error),
    });
    const traces = phases.resources.traces;
    phases.outcomes = await dispatchQueues({
      context,
      executor,
      clock: effects.clock,
      signal,
      logger,
      progress,
      runFile,
      traces,
    });
  } catch (error) {
    logger.error({ err: error }, 'run aborted by an error');
    phases.failure = { error };
  }
  return phases;
}

async function runPhases(options: RunPhasesOptions): Promise<HarnessResult> {
  const { context, effects, logger, progress, runFile, guard, signal: interrupt } = options;
  // Stops on Ctrl-C, and on the first write the run dir refuses (disk full, read-only).
  const signal = AbortSignal.any([interrupt, guard.signal]);
  const { resources, outcomes, failure, identities } = await runBuilds({ ...options, signal });
  if (failure === undefined) {
    progress.stop();
    progress.phase('finalize');
  }
  let finalized: FinalizedRun;
  try {
    finalized = await finalizeRun({
      context,
      runFile,
      resources,
      outcomes,
      interruptedBy:
        failure === undefined && interrupt.aborted ? String(interrupt.reason ?? 'SIGINT') : undefined,
      fatal: failure === undefined ? guard.describe() : `the run stopped: ${errorMessage(failure.error)}`,
      clock: effects.clock,
      logger,
      writeReport: effects.writeReport,
      fetchOverSsh: effects.fetchOverSsh,
      fetchAttachment: effects.fetchAttachment,
      identities,
    });
  } finally {
    if (failure !== undefined) progress.stop();
  }
  const { run, model } = finalized;
  const result = { runDir: context.runDir, exitCode: run.exitCode ?? 1, run, model };
  if (failure !== undefined) {
    await options.onFinalized?.(result);
    throw failure.error;
  }
  await guard.release();
  for (const line of describeUnwritten({ guard, runFile })) progress.note(line);
  progress.note(`run ${context.stamp}: ${run.status} (exit ${run.exitCode}); ${context.runDir}`);
  await options.onFinalized?.(result);
  return result;
}

/** Takes the run lock and runs preflight; on failure releases the lock and removes the run dir. */
async function passPreflight(options: {
  context: RunContext;
  effects: HarnessEffects;
  logger: Logger;
  progress: Progress;
  sampleIntervalMs: number;
}): Promise<{ lock: RunLock; bootstrapTargets: string[] }> {
  const { context, effects, logger, progress } = options;
  let lock: RunLock | undefined;
  try {
    lock = await acquireRunLock({
      root: context.root,
      namespace: context.settings.namespace,
      stamp: context.stamp,
      nowMs: effects.clock.nowMs(),
    });
    progress.phase('preflight');
    const warningsBefore = context.warnings.length;
    const bootstrap = await runPreflight(context, await effects.createProbes(context), {
      sampleIntervalMs: options.sampleIntervalMs,
    });
    for (const warning of context.warnings.slice(warningsBefore)) {
      logger.warn(warning);
      progress.note(`warning: ${warning}`);
    }
    logger.info({ bootstrap }, 'preflight passed');
    return { lock, bootstrapTargets: bootstrap.targets };
  } catch (error) {
    await lock?.release();
    logger.flush();
    await rm(context.runDir, { recursive: true, force: true });
    throw error;
  }
}

export async function runHarness(options: RunHarnessOptions): Promise<HarnessResult> {
  const effects = {
    ...createDefaultEffects({ sshAgent: options.sshAgent, dockerConfigDir: options.dockerConfigDir }),
    ...options.effects,
  };
  const { sampleIntervalMs, logPollIntervalMs } = options;
  const context = await loadRunContext({
    ...options,
    clock: effects.clock,
    runBakePrint: effects.runBakePrint,
  });
  const logger = createLogger({ level: options.logLevel, destination: path.join(context.runDir, 'run.log') });
  const progress = createProgress({
    plan: context.plan,
    clock: effects.clock,
    stream: effects.stderr,
    signal: options.signal,
  });
  logger.info(
    { harness: context.harness, settings: context.settings, plan: context.plan.queues },
    'run loaded',
  );
  const { plan } = context;
  progress.note(
    `plan ${plan.strategy}, ${describeCostSet({ ...plan.costs, costs: { size: Object.keys(plan.targets).length } })}`,
  );
  const { lock, bootstrapTargets } = await passPreflight({
    context,
    effects,
    logger,
    progress,
    sampleIntervalMs,
  });
  context.digests = createFileDigests();
  await writePlanFile(context.runDir, context.plan, {
    onBytes: (bytes) => context.digests?.recordWhole('plan.json', bytes),
  });
  const guard = createRunDirGuard({ runDir: context.runDir, logger, nowMs: () => effects.clock.nowMs() });
  await guard.reserve();
  const initial = createInitialRun({ context, startedAtMs: effects.clock.nowMs(), sampleIntervalMs });
  const runFile = createRunFileWriter(context.runDir, initial, {
    onWriteError: (file, error) => guard.fail(file, error),
  });
  await runFile.update(() => undefined);
  try {
    return await runPhases({
      context,
      effects,
      guard,
      logger,
      progress,
      runFile,
      signal: options.signal,
      onFinalized: options.onFinalized,
      bootstrapTargets,
      sampleIntervalMs,
      logPollIntervalMs,
    });
  } finally {
    await guard.release();
    await lock.release();
    logger.flush();
  }
}
