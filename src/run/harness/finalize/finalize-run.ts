import { readFile } from 'node:fs/promises';
import { writeArtifacts } from '../../../collect/index.js';
import type { Artifact, BuilderIdentity, DataFile, RunFile } from '../../../artifacts/index.js';
import path from 'node:path';
import type { Clock } from '../../../shared/clock.js';
import { ExitCode } from '../../../shared/errors.js';
import type { Logger } from '../../../shared/logger.js';
import { writeRegistrySizes } from '../../cache-logs/index.js';
import type { RunContext } from '../context/index.js';
import { estimateRunBuilderClocks } from '../../../report/align-traces.js';
import { openRunDir, readTraceFiles } from '../../../run-dir/index.js';
import type { SettledOutcome } from '../queues/index.js';
import type { MeasuredResources } from '../measure/index.js';
import { readBuildMetadata, type RunFileWriter, toImageArtifacts } from '../record/index.js';
import { errorMessage } from '../../../shared/error-message.js';
import type { FetchOverSsh, FetchAttachment } from '../../executors/index.js';
import { saveBuilderEvidence } from './save-builder-evidence.js';

// Phase 5: nothing collected is lost — also after a failure or an interrupt. Each step runs even if
// an earlier one failed; what went wrong becomes a warning in run.json.

export interface FinalizeRunOptions {
  context: RunContext;
  runFile: RunFileWriter;
  resources: MeasuredResources | undefined;
  outcomes: Record<string, SettledOutcome>;
  interruptedBy: string | undefined;
  /** A fatal error stopped the run (e.g. a bootstrap build failed): status failed, exit 2. */
  fatal?: string | undefined;
  clock: Clock;
  logger: Logger;
  writeReport: (runDir: string) => Promise<DataFile | undefined>;
  /** Reaches each builder's debug address over its node's ssh link (the cache-key debug database); none: not read. */
  fetchOverSsh?: FetchOverSsh | undefined;
  /** A build record's provenance attachment, where the metadata file lacks it. */
  fetchAttachment?: FetchAttachment | undefined;
  /** Each node's builder before the measured run, for run.json's evidence. */
  identities?: ReadonlyMap<string, BuilderIdentity> | undefined;
}

/** Pure: the run's exit code from its outcomes. @internal */
export function toRunExitCode(run: Pick<RunFile, 'targets'>, interrupted: boolean): number {
  if (interrupted) return ExitCode.interrupted;
  const bad = Object.values(run.targets).some((outcome) => outcome.status !== 'ok');
  return bad ? ExitCode.failures : ExitCode.ok;
}

function toStatus(exitCode: number): RunFile['status'] {
  if (exitCode === ExitCode.interrupted) return 'interrupted';
  if (exitCode === ExitCode.fatal) return 'failed';
  return exitCode === ExitCode.ok ? 'completed' : 'failed';
}

async function attempt<T>(
  what: string,
  warnings: string[],
  logger: Logger,
  work: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    logger.error({ err: error, step: what }, 'finalize step failed');
    warnings.push(`${what} failed: ${errorMessage(error)}`);
    return undefined;
  }
}

/** artifacts.txt: the images this run's successful targets published, from their metadata files. */
async function writeRunArtifacts(
  context: RunContext,
  outcomes: Record<string, SettledOutcome>,
): Promise<void> {
  const artifacts: Artifact[] = [];
  for (const [target, outcome] of Object.entries(outcomes).sort(([a], [b]) => a.localeCompare(b))) {
    if (outcome.status !== 'ok') continue;
    const metadata = await readBuildMetadata(path.join(context.runDir, `meta-${target}.json`), target);
    if (metadata) artifacts.push(...toImageArtifacts(metadata));
  }
  const text = await writeArtifacts({ path: path.join(context.runDir, 'artifacts.txt'), artifacts });
  context.digests?.recordWhole('artifacts.txt', text);
}

/**
 * The metadata files buildx wrote itself (`--metadata-file`): the one kind of run file not written by this process,
 * so hashed from disk once, when the run is over.
 */
async function recordMetadataDigests(context: RunContext, targets: readonly string[]): Promise<void> {
  const digests = context.digests;
  if (digests === undefined) return;
  for (const target of [...targets].sort()) {
    const name = `meta-${target}.json`;
    const bytes = await readFile(path.join(context.runDir, name)).catch(() => undefined);
    if (bytes !== undefined) digests.recordWhole(name, bytes);
  }
}

/** The finished run: run.json as written, and the report's model (undefined when the report failed). */
export interface FinalizedRun {
  run: RunFile;
  model: DataFile | undefined;
}

export async function finalizeRun(options: FinalizeRunOptions): Promise<FinalizedRun> {
  const { context, runFile, resources, outcomes, logger } = options;
  const warnings: string[] = [];
  if (resources) {
    await attempt('stopping the sampler', warnings, logger, resources.stopSampler);
    await attempt('measuring the clocks after the run', warnings, logger, resources.measureClocksAfter);
    const capture = resources.logCapture;
    const slices = capture
      ? await attempt('slicing the cache logs', warnings, logger, () => capture.stop())
      : undefined;
    for (const slice of slices ?? []) {
      warnings.push(...(slice.outages ?? []));
      if (slice.warning) warnings.push(slice.warning);
    }
    if (slices) await runFile.update((run) => void (run.logs = slices));
    const registrySlice = slices?.find((slice) => slice.kind === 'registry');
    const { registry } = context.config;
    if (registrySlice && registry.logFormat === 'distribution') {
      const sized = await attempt('asking the registry for the sizes its log lacks', warnings, logger, () =>
        writeRegistrySizes({
          runDir: context.runDir,
          sliceFile: registrySlice.file,
          registryUrl: registry.url,
          cachePatterns: registry.cachePatterns,
          nowMs: () => options.clock.nowMs(),
        }),
      );
      warnings.push(...(sized?.warnings ?? []));
    }
    warnings.push(
      ...((await attempt('fetching traces', warnings, logger, () => resources.traces.settle())) ?? []),
    );
    const { fetchOverSsh, fetchAttachment } = options;
    if (fetchOverSsh && fetchAttachment)
      await attempt("saving the builders' cache-key debug databases", warnings, logger, async () => {
        const finishedTargets = Object.entries(outcomes)
          .filter(([, outcome]) => outcome.status === 'ok')
          .map(([target]) => target);
        const evidence = await saveBuilderEvidence({
          context,
          fetchOverSsh,
          fetchAttachment,
          finishedTargets,
          identities: options.identities,
        });
        await runFile.update((run) => void (run.evidence = evidence));
        for (const note of evidence.notes) logger.info({ note }, 'evidence not recorded');
      });
    await attempt("estimating the builders' clocks", warnings, logger, async () => {
      const { traces } = await readTraceFiles(openRunDir(context.runDir), {
        nowMs: options.clock.nowMs(),
        check: false,
      });
      const builderClocks = estimateRunBuilderClocks(
        { ...runFile.get(), targets: { ...runFile.get().targets, ...outcomes } },
        traces,
      );
      await runFile.update((run) => void (run.builderClocks = builderClocks));
    });
  }
  await attempt('writing artifacts.txt', warnings, logger, () => writeRunArtifacts(context, outcomes));
  await attempt("recording the metadata files' digests", warnings, logger, () =>
    recordMetadataDigests(context, Object.keys(outcomes)),
  );
  const exitCode = options.fatal
    ? ExitCode.fatal
    : toRunExitCode(
        { targets: { ...runFile.get().targets, ...outcomes } },
        options.interruptedBy !== undefined,
      );
  if (options.fatal) warnings.push(options.fatal);
  await runFile.update((run) => {
    Object.assign(run.targets, outcomes);
    run.status = toStatus(exitCode);
    run.exitCode = exitCode;
    run.finishedAtMs = options.clock.nowMs();
    run.warnings.push(...warnings);
    if (options.interruptedBy) run.interruptedBy = options.interruptedBy;
    if (context.digests) run.files = context.digests.toRecords();
  });
  const reportProblems: string[] = [];
  const model = await attempt(
    'writing the report (run `rocm-perf report` on this run dir to retry)',
    reportProblems,
    logger,
    () => options.writeReport(context.runDir),
  );
  if (reportProblems.length > 0) await runFile.update((run) => void run.warnings.push(...reportProblems));
  logger.info(
    { exitCode, status: toStatus(exitCode), warnings: [...warnings, ...reportProblems] },
    'run finalized',
  );
  return { run: runFile.get(), model };
}
