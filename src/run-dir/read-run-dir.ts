import path from 'node:path';
import { readRegistrySummary, readSamples, readSccacheLog, readStepUsage } from '../collect/index.js';
import {
  createStreamStats,
  DEFAULT_LANE,
  RUN_DIR_FILES,
  STATUS_FILE,
  LaneSchema,
  ARTIFACTS_HEADER,
  parseArtifactLines,
  createSampleTable,
  type Plan,
  type RunFile,
  type StreamStats,
} from '../artifacts/index.js';
import { readPlanFileIfPresent } from './plan-file-io.js';
import { readTextIfPresent } from './read-json-file.js';
import type { RunDir } from './open-run-dir.js';
import { readRunFile } from './read-run-file.js';
import { readRegistrySizes } from './read-registry-sizes-file.js';
import { ArtifactError, isRocmPerfError } from '../shared/errors.js';
import { absentStream, describeReadError, findErrno, probeStream, unreadableStream } from './probe-stream.js';
import { readTraceFiles } from './read-trace-files.js';
import { readUsageInputs } from './read-usage-inputs.js';
import type { ReportPlan, RunChecks, RunInputs, StreamInput } from './run-inputs.js';
import { readRunFileChecks, type RunFileChecks } from './read-run-checks.js';

// A run dir → RunInputs, through the collectors' readers. Files of the spec (samples.jsonl, trace-*.json,
// sccache.log, zot.jsonl, artifacts.txt) may each be absent; run.json and plan.json are ours and, when present,
// must pass their schemas.

/** The run's lane: lane.txt (written by `rocm-perf import`), else this fleet's lane. */
export async function readLane(runDir: RunDir): Promise<string> {
  const file = runDir.file(RUN_DIR_FILES.lane);
  const text = await readTextIfPresent(runDir, RUN_DIR_FILES.lane);
  if (text === undefined) return DEFAULT_LANE;
  const parsed = LaneSchema.safeParse(text.trim());
  if (parsed.success) return parsed.data;
  throw new ArtifactError(
    file,
    `${JSON.stringify(text.trim().slice(0, 64))} is not a lane: ${parsed.error.issues[0]?.message}`,
    {
      hint: 'write one lane name, e.g. `nightly-aws`, or re-import the run with `rocm-perf import --lane NAME`',
    },
  );
}

export async function readReportPlan(runDir: RunDir): Promise<ReportPlan | undefined> {
  return toReportPlan(await readPlanFileIfPresent(runDir));
}

function toReportPlan(plan: Plan | undefined): ReportPlan | undefined {
  if (plan === undefined) return undefined;
  return {
    strategy: plan.strategy,
    makespanSeconds: plan.makespanSeconds,
    lowerBoundSeconds: plan.lowerBoundSeconds,
    criticalPath: plan.criticalPath,
    costs: plan.costs,
    forecast: plan.forecast
      ? {
          forecast: plan.forecast,
          dispatchPlan: { queues: plan.queues, targets: plan.targets, nodes: plan.nodes },
        }
      : undefined,
    targets: Object.fromEntries(
      Object.entries(plan.targets).map(([name, t]) => {
        const linkMbps = plan.nodes.find((n) => n.name === t.node)?.linkMbps;
        return [
          name,
          {
            node: t.node,
            startSeconds: t.startSeconds,
            finishSeconds: t.finishSeconds,
            deps: t.deps,
            buildSeconds: t.buildSeconds,
            ...(linkMbps === undefined ? {} : { plannedBytes: Math.round(t.exportSeconds * linkMbps * 1e6) }),
          },
        ];
      }),
    ),
  };
}

/** Client address → node name, from run.json. */
export function buildAddressToNode(run: RunFile | undefined): Record<string, string> {
  return Object.fromEntries((run?.nodes ?? []).flatMap((n) => (n.address ? [[n.address, n.name]] : [])));
}

export interface ReadRunInputsOptions {
  runDir: RunDir;
  generatedAtMs: number;
  seriesPoints?: number;
}

/** The report needs the logs' summaries only: no record is held in memory. */
const keepNone = () => false;

/** Reads a whole run dir once (report, publish, and serve for finished runs). */
export async function readRunInputs({
  runDir,
  generatedAtMs,
  seriesPoints,
}: ReadRunInputsOptions): Promise<RunInputs> {
  const { dir } = runDir;
  const run = await readRunFile(runDir);
  const planFile = await readPlanFileIfPresent(runDir);
  const checked = await readRunFileChecks({ runDir, run, plan: planFile, keep: true });
  const plan = checked.planProblem === undefined ? toReportPlan(planFile) : undefined;
  const addressToNode = buildAddressToNode(run);
  const file = (name: string): string => path.join(dir, name);
  // The registry log first: a large one is summarised on a thread while the other files are read here.
  const format = run?.registryLogFormat ?? 'zot';
  const sizes = format === 'distribution' ? await readRegistrySizes(runDir) : undefined;
  const registryRead = readStream(file(RUN_DIR_FILES.registry), (at) =>
    readRegistrySummary({
      path: at,
      format,
      sizes,
      cachePatterns: run?.registryCachePatterns ?? ['*/cache:*'],
      addressToNode,
    }),
  );
  // Awaited below; not left unhandled while the other files are read.
  registryRead.catch(() => undefined);
  const samples = await readStream(file(RUN_DIR_FILES.samples), (at) => readSamples(at));
  const sccache = await readStream(file(RUN_DIR_FILES.sccache), (at) =>
    readSccacheLog({
      path: at,
      addressToNode,
      summarize: { livePrefix: run?.liveSccachePrefix ?? '', runPrefix: run?.sccachePrefix },
      keep: keepNone,
    }),
  );
  const artifacts = await readArtifacts(runDir);
  const { traces, streams: traceStreams } = await readTraceFiles(runDir, { nowMs: generatedAtMs });
  const stepUsage = await readStream(file(RUN_DIR_FILES.stepUsage), readStepUsage);
  const usage = await readUsageInputs({
    runDir,
    run,
    stepUsage: stepUsage.read,
    samples: samples.read?.table ?? createSampleTable(),
  });
  const registry = await registryRead;
  const { streams, checks } = attachChecks(
    [
      samples.stream,
      ...(stepUsage.stream.present ? [stepUsage.stream] : []),
      sccache.stream,
      // A Zot log is JSON only; docker-registry writes access-log lines beside its JSON, which are skipped as noise.
      format === 'zot' ? { ...registry.stream, unexpectedSkips: ['not JSON'] } : registry.stream,
      artifacts.stream,
      ...traceStreams,
    ],
    checked,
  );
  return {
    stamp: path.basename(path.resolve(dir)),
    lane: await readLane(runDir),
    run,
    plan,
    samples: samples.read?.table ?? createSampleTable(),
    traces,
    sccache: sccache.read?.summary,
    registry: registry.read?.summary,
    artifacts: artifacts.lines,
    streams,
    checks,
    generatedAtMs,
    usage,
    seriesPoints,
  };
}

/** A target's status stream and metadata file feed its trace's figures (step counts, artifacts): blamed there. */
const SIDE_FILE = new RegExp(`${STATUS_FILE.source}|^meta-(.+)\\.json$`);

/**
 * The digest findings onto the stream whose figures they touch (the warning still names the file at fault); the
 * rest, plan.json's and the notes, as run checks.
 */
function attachChecks(
  streams: readonly StreamInput[],
  checked: RunFileChecks,
): { streams: StreamInput[]; checks: RunChecks } {
  const byName = new Map(streams.map((stream) => [stream.name, stream]));
  const damage = new Map<string, string[]>();
  const loud: { file: string; message: string }[] = [];
  for (const [file, message] of checked.mismatches) {
    if (file === 'plan.json') continue;
    const side = SIDE_FILE.exec(file);
    const owner = side ? `trace-${side[1] ?? side[2]}.json` : file;
    if (byName.has(owner)) damage.set(owner, [...(damage.get(owner) ?? []), message]);
    else loud.push({ file, message });
  }
  if (checked.planProblem !== undefined) loud.push({ file: 'plan.json', message: checked.planProblem });
  return {
    streams: streams.map((stream) => {
      const more = damage.get(stream.name);
      return more ? { ...stream, damage: [...(stream.damage ?? []), ...more] } : stream;
    }),
    checks: { loud, notes: checked.notes.map((message) => ({ file: 'run.json', message })) },
  };
}

/**
 * One stream file through its reader: absent, unreadable (the read failed on the file system: a warning, not a
 * failed report) or read. A reader's own errors (a samples file of another version) still stop the report.
 */
async function readStream<T extends { stats: StreamStats }>(
  file: string,
  read: (file: string) => Promise<T>,
): Promise<{ read: T | undefined; stream: StreamInput }> {
  const name = path.basename(file);
  const probe = await probeStream(file);
  if (!probe.present) return { read: undefined, stream: absentStream(name) };
  if (probe.unreadable !== undefined)
    return { read: undefined, stream: unreadableStream(name, probe.unreadable) };
  try {
    const result = await read(file);
    return { read: result, stream: { name, present: true, stats: { ...result.stats, source: name } } };
  } catch (error) {
    if (findErrno(error) === undefined) throw error;
    return { read: undefined, stream: unreadableStream(name, describeReadError(error)) };
  }
}

/**
 * artifacts.txt: the versioned format (`# rocm-perf artifacts version 1`, tab-separated, read through the collectors'
 * schema); a file without that header (an older harness) is read as one artifact per line.
 */
export async function readArtifacts(runDir: RunDir): Promise<{ lines: string[]; stream: StreamInput }> {
  const name = RUN_DIR_FILES.artifacts;
  let text: string | undefined;
  try {
    text = await runDir.readText(name);
  } catch (error) {
    return { lines: [], stream: unreadableStream(name, describeReadError(error)) };
  }
  if (text === undefined) return { lines: [], stream: absentStream(name) };
  const rawLines = text.split('\n');
  if (rawLines[rawLines.length - 1] === '') rawLines.pop();
  const stats: StreamStats = {
    ...createStreamStats(name),
    bytes: Buffer.byteLength(text),
    lines: rawLines.length,
  };
  const blank = rawLines.filter((l) => l.trim() === '' || l.startsWith('#')).length;
  stats.skipped = blank;
  if (blank) stats.skippedByReason['blank or comment'] = blank;
  if (!text.startsWith(ARTIFACTS_HEADER.replace(/\d+$/, ''))) {
    const lines = rawLines.map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
    stats.records = lines.length;
    return { lines, stream: { name, present: true, stats } };
  }
  try {
    const { artifacts, rejected } = parseArtifactLines(text, name);
    stats.records = artifacts.length;
    stats.rejected = rejected.length;
    stats.rejectedExamples = rejected.slice(0, 5);
    const lines = artifacts.map((a) =>
      a.kind === 'wheel' ? `wheel ${a.name} (${a.sizeBytes} bytes)` : `image ${a.name}`,
    );
    const listsNothing = artifacts.length === 0 && rejected.length === 0;
    return { lines, stream: { name, present: true, stats, listsNothing } };
  } catch (error) {
    if (!isRocmPerfError(error)) throw error;
    stats.rejected = stats.lines - blank;
    return { lines: [], stream: { name, present: true, stats, extraWarnings: [error.message] } };
  }
}
