import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  createPrometheusSampler,
  createSamplesWriter,
  writeSamplesFile,
  type CreatePrometheusSamplerOptions,
  type PrometheusSampler,
  describeClockProblems,
  fetchMetricsText,
  type FetchMetrics,
  type CreateSamplerOptions,
  type Sampler,
} from '../../collect/index.js';
import { writePlanFile } from '../../plan/plan-file-io.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { createLogger, type Logger } from '../../shared/logger.js';
import { runBootstrap } from './bootstrap.js';
import { createLogCapture, type LogCapture, type LogSource } from '../cache-logs/capture-logs.js';
import { createTraceCollector } from './collect-traces.js';
import { createPreflightProbes } from './create-preflight-probes.js';
import {
  createBuildxExecutor,
  dispatchQueues,
  toBuildEnv,
  type Bake,
  type FindFailedBuild,
} from './dispatch-queues.js';
import { runBakePrint, type RunBakePrint } from '../executors/bake-print.js';
import { findFailedBuildRef, runBake, runHistoryTrace } from '../executors/buildx.js';
import { connectRemoteHost, type ConnectRemoteHost } from '../executors/remote-host.js';
import { finalizeRun, type MeasuredResources } from './finalize-run.js';
import { loadRunContext, type LoadRunContextOptions, type RunContext } from './load-run-context.js';
import type { SettledOutcome } from './node-queue.js';
import type { PreflightProbes } from './preflight.js';
import { describeCostSet } from '../../plan/index.js';
import { runPreflight } from './preflight.js';
import { measureClocks } from './measure-clocks.js';
import { createProgress, type Progress } from './progress.js';
import { RUN_VERSION, type ClockReading, type RunFile, type Sample } from '../../artifacts/index.js';
import { createRunFileWriter, type RunFileWriter } from './run-file-writer.js';
import { createRunDirGuard, type RunDirGuard } from './guard-run-dir.js';
import { acquireRunLock, type RunLock } from './run-lock.js';
import { sampleOnThread } from '../sampling/sample-on-thread.js';

// cold, warm and bench: load → preflight → bootstrap → measured run → finalize, each a named step.

export interface HarnessDeps {
  clock: Clock;
  /** `buildx bake --print` (docker's or the standalone binary), when fleet.yaml names a bake file, not a saved print. */
  runBakePrint: RunBakePrint;
  bake: Bake;
  /** The build record of a failed bake, for its trace (a failed bake writes no metadata file). */
  findFailedBuild: FindFailedBuild;
  fetchTrace: typeof runHistoryTrace;
  connect: ConnectRemoteHost;
  createProbes: (context: RunContext) => Promise<PreflightProbes>;
  createSampler: (options: CreateSamplerOptions) => Sampler;
  /** With fleet.yaml `samples.prometheus`: live instant queries, then the window by query_range at finalize. */
  createPrometheusSampler: (options: CreatePrometheusSamplerOptions) => PrometheusSampler;
  /** One GET of a node's /metrics (the clock readings take node_time_seconds from it). */
  fetchMetrics: FetchMetrics;
  /** Writes data.json, report.md and index.html; returns warnings. */
  writeReport: (runDir: string) => Promise<string[]>;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** The run context's options (harness, fleet, flags, root, strategy, plan, dispatch, env) plus the shell's own. */
const DEFAULT_SAMPLE_INTERVAL_MS = 2_000;

export interface RunHarnessOptions extends Omit<LoadRunContextOptions, 'clock' | 'runBakePrint'> {
  /** Aborted with the signal name ('SIGINT', 'SIGTERM') as its reason. */
  signal: AbortSignal;
  sampleIntervalMs?: number;
  logPollIntervalMs?: number;
  /** Level of the log events echoed on stderr (`--log-level`); run.log gets every event at debug level. */
  logLevel?: string;
  deps?: Partial<HarnessDeps>;
}

export interface HarnessResult {
  runDir: string;
  exitCode: number;
  run: RunFile;
}

/** data.json, report.md and index.html for a run dir; returns the report's loud warnings. */
export async function writeRunReport(runDir: string): Promise<string[]> {
  const { buildReportModel, readRunInputs, writeReport } = await import('../../report/index.js');
  const model = buildReportModel(await readRunInputs({ dir: runDir, generatedAtMs: Date.now() }));
  await writeReport({ dir: runDir, model });
  return model.summary.warnings
    .filter((warning) => warning.level === 'loud')
    .map((warning) => warning.message);
}

const defaultDeps = (): HarnessDeps => ({
  clock: systemClock,
  runBakePrint,
  bake: runBake,
  findFailedBuild: findFailedBuildRef,
  fetchTrace: runHistoryTrace,
  connect: connectRemoteHost,
  createProbes: (context) => createPreflightProbes(context.config),
  createSampler: sampleOnThread,
  createPrometheusSampler,
  fetchMetrics: fetchMetricsText,
  writeReport: writeRunReport,
  stderr: process.stderr,
});

function createInitialRun(context: RunContext, nowMs: number, sampleIntervalMs: number): RunFile {
  const { config, settings, plan } = context;
  const prometheusUrl = config.samples?.prometheusUrl;
  return {
    samples:
      prometheusUrl === undefined
        ? { source: 'node_exporter', intervalMs: sampleIntervalMs }
        : { source: 'prometheus', intervalMs: sampleIntervalMs, prometheusUrl },
    version: RUN_VERSION,
    stamp: context.stamp,
    harness: context.harness,
    mode: settings.mode,
    namespace: settings.namespace,
    arch: config.arch,
    sccachePrefix: settings.sccachePrefix,
    liveSccachePrefix: settings.liveSccachePrefix,
    fleetPath: context.fleetPath,
    strategy: plan.strategy,
    dispatch: context.dispatch,
    status: 'running',
    startedAtMs: nowMs,
    measuredStartedAtMs: null,
    finishedAtMs: null,
    exitCode: null,
    nodes: config.nodes.map((node) => ({
      name: node.name,
      builder: node.builder,
      ...(node.address ? { address: node.address } : {}),
      linkMbps: node.linkMbps,
      speed: node.speed,
    })),
    targets: Object.fromEntries(
      Object.entries(plan.targets).map(([target, entry]) => [
        target,
        { status: 'pending' as const, node: entry.node },
      ]),
    ),
    bootstrapped: [],
    registryCachePatterns: config.registry.cachePatterns,
    registryLogFormat: config.registry.logFormat,
    warnings: [...context.warnings],
  };
}

export function toLogSources(context: RunContext): LogSource[] {
  const { registry, sccache } = context.config;
  const sources: LogSource[] = [];
  if (sccache.log) sources.push({ kind: 'sccache', file: 'sccache.log', ...sccache.log });
  // Always zot.jsonl (the report's name for the registry stream); run.json's registryLogFormat says which parser.
  if (registry.log) sources.push({ kind: 'registry', file: 'zot.jsonl', ...registry.log });
  return sources;
}

interface Live {
  context: RunContext;
  guard: RunDirGuard;
  deps: HarnessDeps;
  logger: Logger;
  progress: Progress;
  runFile: RunFileWriter;
  options: RunHarnessOptions;
  bootstrapTargets: readonly string[];
}

/** Reads the nodes' and log hosts' clocks; records them in run.json and says what is off. */
async function recordClocks(live: Live, phase: ClockReading['phase']): Promise<void> {
  const { context, deps, logger, progress, runFile } = live;
  const readings = await measureClocks({
    phase,
    nodes: context.config.nodes.map((node) => ({ name: node.name, url: node.nodeExporterUrl })),
    logHosts: toLogSources(context).map((source) => source.ssh),
    connect: deps.connect,
    clock: deps.clock,
    fetchMetrics: deps.fetchMetrics,
  });
  const earlier = runFile.get().clocks ?? [];
  await runFile.update((run) => void (run.clocks = [...earlier, ...readings]));
  logger.info({ phase, readings }, 'clocks measured');
  // After the run, only what is new: the after-readings' own problems and clocks that moved during the run.
  const said = new Set(describeClockProblems(earlier));
  for (const problem of describeClockProblems([...earlier, ...readings]).filter((p) => !said.has(p))) {
    logger.warn({ phase }, problem);
    progress.note(`warning: ${problem}`);
  }
}

interface SampleSource {
  stop(): Promise<void>;
  /** After stop and the writer's close: Prometheus' window replaces the live lines. */
  finish(samplesPath: string): Promise<void>;
}

/** The node_exporter scrape sampler, or Prometheus when fleet.yaml names one (`samples.prometheus`). */
function startSampleSource(live: Live, onSample: (sample: Sample) => void): SampleSource {
  const { context, deps, options, logger, runFile } = live;
  const intervalMs = options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS;
  const prometheusUrl = context.config.samples?.prometheusUrl;
  if (prometheusUrl === undefined) {
    const sampler = deps.createSampler({
      nodes: context.config.nodes.map((node) => ({ name: node.name, url: node.nodeExporterUrl })),
      intervalMs,
      onSample,
    });
    sampler.start();
    return { stop: () => sampler.stop(), finish: () => Promise.resolve() };
  }
  const sampler = deps.createPrometheusSampler({
    prometheusUrl,
    nodes: context.config.nodes.map((node) => ({ name: node.name, instance: node.prometheusInstance })),
    intervalMs,
    onSample,
  });
  sampler.start();
  return {
    stop: () => sampler.stop(),
    async finish(samplesPath) {
      try {
        await writeSamplesFile(samplesPath, await sampler.fetchWindow(deps.clock.nowMs()));
        logger.info({ prometheusUrl }, 'samples.jsonl rewritten from query_range');
      } catch (error) {
        const warning = `samples.jsonl keeps the live instant-query lines: the query_range over the run at ${prometheusUrl} failed: ${(error as Error).message}`;
        logger.warn({ err: error }, warning);
        await runFile.update((run) => void run.warnings.push(warning));
      }
    },
  };
}

async function startMeasured(live: Live): Promise<MeasuredResources> {
  const { context, deps, logger, runFile, options } = live;
  await recordClocks(live, 'before');
  const samplesPath = path.join(context.runDir, 'samples.jsonl');
  const samples = createSamplesWriter(samplesPath, (error) => live.guard.fail(samplesPath, error));
  const sampler = startSampleSource(live, (sample) => samples.write(sample));
  const sources = toLogSources(context);
  let logCapture: LogCapture | undefined = createLogCapture({
    sources,
    runDir: context.runDir,
    connect: deps.connect,
    logger,
    onWriteError: (file, error) => live.guard.fail(file, error),
    clock: deps.clock,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await logCapture.start();
    timer = setInterval(() => void logCapture?.poll(), options.logPollIntervalMs ?? 5_000);
  } catch (error) {
    logger.error({ err: error }, 'log capture did not start');
    await runFile.update(
      (run) => void run.warnings.push(`cache log capture did not start: ${(error as Error).message}`),
    );
    logCapture = undefined;
  }
  const capture = logCapture;
  return {
    stopSampler: async () => {
      if (timer) clearInterval(timer);
      try {
        await sampler.stop();
      } finally {
        await samples.close();
      }
      await sampler.finish(samplesPath);
    },
    logCapture: capture,
    measureClocksAfter: () => recordClocks(live, 'after'),
    traces: createTraceCollector({
      runDir: context.runDir,
      fetchTrace: deps.fetchTrace,
      buildx: context.config.buildx?.path,
      logger,
      guard: live.guard,
    }),
  };
}

function interruptedOutcomes(context: RunContext): Record<string, SettledOutcome> {
  return Object.fromEntries(
    Object.entries(context.plan.targets).map(([target, entry]) => [
      target,
      { status: 'skipped' as const, node: entry.node, reason: 'interrupted' },
    ]),
  );
}

async function runPhases(live: Live): Promise<HarnessResult> {
  const { context, deps, logger, progress, runFile, options, guard } = live;
  // Stops on Ctrl-C, and on the first write the run dir refuses (disk full, read-only).
  const signal = AbortSignal.any([options.signal, guard.signal]);
  let resources: MeasuredResources | undefined;
  let outcomes: Record<string, SettledOutcome> = {};
  try {
    progress.phase('bootstrap');
    const bootstrapped = await runBootstrap({
      context,
      clock: deps.clock,
      targets: live.bootstrapTargets,
      bake: deps.bake,
      env: toBuildEnv(context),
      signal,
      logger,
      onTarget: (target, node) =>
        progress.note(`bootstrap: building ${target} on ${node} (warm, pushed, not sampled)`),
    });
    await runFile.update((run) => {
      run.bootstrapped = bootstrapped.map((build) => build.target);
      run.bootstrap = bootstrapped;
    });
    if (signal.aborted) outcomes = interruptedOutcomes(context);
    else {
      progress.phase(`measured run: ${context.harness} into ${context.settings.namespace}`);
      await runFile.update((run) => void (run.measuredStartedAtMs = deps.clock.nowMs()));
      resources = await startMeasured(live);
      const executor = createBuildxExecutor({
        context,
        bake: deps.bake,
        findFailedBuild: deps.findFailedBuild,
        logger,
        onWriteError: (file, error) => void guard.fail(file, error),
      });
      outcomes = await dispatchQueues({
        context,
        executor,
        clock: deps.clock,
        signal,
        logger,
        progress,
        runFile,
        traces: resources.traces,
      });
    }
  } catch (error) {
    logger.error({ err: error }, 'run aborted by an error');
    const fatal = `the run stopped: ${(error as Error).message}`;
    await finalizeRun({
      context,
      runFile,
      resources,
      outcomes,
      interruptedBy: undefined,
      fatal,
      clock: deps.clock,
      logger,
      writeReport: deps.writeReport,
    });
    throw error;
  } finally {
    progress.stop();
  }
  progress.phase('finalize');
  const interruptedBy = options.signal.aborted ? String(options.signal.reason ?? 'SIGINT') : undefined;
  const run = await finalizeRun({
    context,
    runFile,
    resources,
    outcomes,
    interruptedBy,
    fatal: guard.describe(),
    clock: deps.clock,
    logger,
    writeReport: deps.writeReport,
  });
  await guard.release();
  sayWhatWasNotWritten(live);
  progress.note(`run ${context.stamp}: ${run.status} (exit ${run.exitCode}); ${context.runDir}`);
  return { runDir: context.runDir, exitCode: run.exitCode ?? 1, run };
}

/** After a disk failure: the account on stderr too, and whether even run.json could not be finalized. */
function sayWhatWasNotWritten({ guard, runFile, progress }: Live): void {
  const account = guard.describe();
  if (account === undefined) return;
  progress.note(`ERROR: ${account}`);
  if (!runFile.isWritten())
    progress.note(
      `ERROR: run.json could not be finalized either: on disk it still says the run is running. This run ended ${runFile.get().status} with exit ${runFile.get().exitCode}.`,
    );
}

export async function runHarness(options: RunHarnessOptions): Promise<HarnessResult> {
  const deps = { ...defaultDeps(), ...options.deps };
  const context = await loadRunContext({ ...options, clock: deps.clock, runBakePrint: deps.runBakePrint });
  const logger = createLogger({ level: options.logLevel, destination: path.join(context.runDir, 'run.log') });
  const progress = createProgress({ plan: context.plan, clock: deps.clock, stream: deps.stderr });
  logger.info(
    { harness: context.harness, settings: context.settings, plan: context.plan.queues },
    'run loaded',
  );
  progress.note(
    `plan ${context.plan.strategy}, ${describeCostSet({ ...context.plan.costs, costs: { size: Object.keys(context.plan.targets).length } })}`,
  );
  let lock: RunLock | undefined;
  let bootstrapTargets: string[];
  try {
    lock = await acquireRunLock({
      root: context.root,
      namespace: context.settings.namespace,
      stamp: context.stamp,
      nowMs: deps.clock.nowMs(),
    });
    progress.phase('preflight');
    const warningsBefore = context.warnings.length;
    const bootstrap = await runPreflight(context, await deps.createProbes(context), {
      sampleIntervalMs: options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS,
    });
    for (const warning of context.warnings.slice(warningsBefore)) {
      logger.warn(warning);
      progress.note(`WARNING: ${warning}`);
    }
    bootstrapTargets = bootstrap.targets;
    logger.info({ bootstrap }, 'preflight passed');
  } catch (error) {
    await lock?.release();
    logger.flush();
    await rm(context.runDir, { recursive: true, force: true });
    throw error;
  }
  await writePlanFile(context.runDir, context.plan);
  const guard = createRunDirGuard({ runDir: context.runDir, logger, nowMs: () => deps.clock.nowMs() });
  await guard.reserve();
  const runFile = createRunFileWriter(
    context.runDir,
    createInitialRun(context, deps.clock.nowMs(), options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS),
    {
      onWriteError: (file, error) => guard.fail(file, error),
    },
  );
  await runFile.update(() => undefined);
  try {
    return await runPhases({ context, deps, logger, progress, runFile, options, bootstrapTargets, guard });
  } finally {
    await guard.release();
    await lock.release();
    logger.flush();
  }
}
