import {
  parseBuildkitTrace,
  parseStatusSteps,
  type TargetTrace,
  type TraceExtent,
} from '../collect/index.js';
import {
  createStreamStats,
  findStreamWarnings,
  TARGET_FILES,
  TRACE_FILE,
  type RunFile,
  type StreamStats,
} from '../artifacts/index.js';
import type { RunDir } from './open-run-dir.js';
import { readRunFile } from './read-run-file.js';
import { isRocmPerfError } from '../shared/errors.js';
import { absentStream, describeReadError, unreadableStream } from './probe-stream.js';
import { readTextIfPresent } from './read-json-file.js';
import { findTraceImplausibility } from './find-trace-implausibility.js';
import type { StreamInput } from './run-inputs.js';

// The one reader of a run dir's trace-<target>.json files, through the BuildKit trace parser. (Not in artifacts/:
// the parser is collect's, a layer above the artifacts.)

/** The trace files of a run dir, in name order. */
async function listTraceFiles(runDir: RunDir): Promise<string[]> {
  return (await runDir.listNames()).filter((name) => TRACE_FILE.test(name));
}

export interface TraceFilesRead {
  traces: TargetTrace[];
  streams: StreamInput[];
  /** Per target whose trace was kept, what its file's spans carry (BuildKit trace IDs, top spans). */
  extents: Map<string, TraceExtent>;
}

/**
 * Every trace of a run dir with its stream stats, read and checked once per handle (report, why, the advisor and
 * export all read them here): a damaged trace is a stream warning, not an error; a trace that is not this run's
 * (find-trace-implausibility.ts, against run.json) is left out with its damage said; step counts come from
 * status-<target>.jsonl where there is one. run.json's `uploadRefs` split each target's uploads into image and
 * cache; without them (runs recorded before issue 35) every upload is `unknown`. `nowMs` closes the window of a
 * run still in flight; `check: false` reads the traces as they are (the harness's clock estimate, see TraceCheck).
 */
export function readTraceFiles(
  runDir: RunDir,
  { nowMs, check = true }: { nowMs: number; check?: boolean },
): Promise<TraceFilesRead> {
  return runDir.remember(`traces:${check}`, async () => {
    const run = await readRunFile(runDir);
    const traces: TargetTrace[] = [];
    const streams: StreamInput[] = [];
    const extents = new Map<string, TraceExtent>();
    for (const name of await listTraceFiles(runDir)) {
      const result = await readTraceFile(runDir, name, { run, nowMs, check });
      if (result.trace) traces.push(result.trace);
      if (result.trace && result.extent) extents.set(result.trace.target, result.extent);
      streams.push(result.stream);
    }
    return { traces, streams, extents };
  });
}

/** What a trace is checked against (find-trace-implausibility.ts). */
export interface TraceCheck {
  run: RunFile | undefined;
  nowMs: number;
  /**
   * False only for the harness's own estimate of the builders' clocks at the end of a run, which the check needs
   * (a skewed builder's trace fails the check until its clock is known).
   */
  check?: boolean;
}

/**
 * One trace-<target>.json; its step counts come from status-<target>.jsonl beside it when that stream is a
 * single-target bake's (they then agree with `history inspect`), else from the trace's step spans. serve reads a
 * run in flight trace by trace through it.
 */
export async function readTraceFile(
  runDir: RunDir,
  name: string,
  check: TraceCheck,
): Promise<{ trace: TargetTrace | undefined; stream: StreamInput; extent?: TraceExtent }> {
  const target = TRACE_FILE.exec(name)?.[1] ?? name;
  const refs = check.run?.uploadRefs?.[target];
  let text: string | undefined;
  try {
    text = await runDir.takeText(name);
  } catch (error) {
    return { trace: undefined, stream: unreadableStream(name, describeReadError(error)) };
  }
  if (text === undefined) return { trace: undefined, stream: absentStream(name) };
  try {
    const parsed = parseBuildkitTrace(text, {
      source: name,
      target,
      cacheRefs: refs?.cache,
      imageRefs: refs?.image,
    });
    // Drift and rejected span objects are said once, by the report's own stream checks.
    const own = new Set(findStreamWarnings(parsed.stats));
    const damage =
      check.check === false
        ? []
        : findTraceImplausibility({
            name,
            target,
            extent: parsed.extent,
            run: check.run,
            nowMs: check.nowMs,
          });
    const stream: StreamInput = {
      name,
      present: true,
      stats: parsed.stats,
      extraWarnings: parsed.warnings.filter((w) => !own.has(w)),
      ...(damage.length > 0 ? { damage } : {}),
    };
    if (damage.length > 0) return { trace: undefined, stream };
    const status = await readTextIfPresent(runDir, TARGET_FILES.status(target));
    const counts = status === undefined ? undefined : parseStatusSteps(status, target);
    return {
      trace: counts === undefined ? parsed.trace : { ...parsed.trace, ...counts },
      stream,
      extent: parsed.extent,
    };
  } catch (error) {
    if (!isRocmPerfError(error)) throw error;
    const stats: StreamStats = {
      ...createStreamStats(name),
      bytes: Buffer.byteLength(text),
      lines: text.split('\n').length - 1,
    };
    stats.rejected = text.trim() === '' ? 0 : 1;
    return { trace: undefined, stream: { name, present: true, stats, extraWarnings: [error.message] } };
  }
}

/**
 * For the planner's replay and `costs --from`: each target's trace as its parser reads it (no status-file step
 * counts), with the parser's warnings; a trace that does not parse is an error.
 */
export async function readRunTraces(
  runDir: RunDir,
): Promise<{ traces: Map<string, TargetTrace>; warnings: string[] }> {
  const traces = new Map<string, TargetTrace>();
  const warnings: string[] = [];
  for (const name of await listTraceFiles(runDir)) {
    const target = TRACE_FILE.exec(name)?.[1];
    const text = await runDir.takeText(name);
    if (!target || text === undefined) continue;
    const parsed = parseBuildkitTrace(text, { source: name, target });
    warnings.push(...parsed.warnings);
    traces.set(target, parsed.trace);
  }
  return { traces, warnings };
}
