import { readdir } from 'node:fs/promises';
import { readRunFileText } from '../artifacts/open-run-file.js';
import path from 'node:path';
import {
  parseBuildkitTrace,
  parseStatusSteps,
  type TargetTrace,
  type TraceExtent,
} from '../collect/index.js';
import {
  createStreamStats,
  findStreamWarnings,
  type RunFile,
  type StreamStats,
  type UploadRefs,
} from '../artifacts/index.js';
import { readTextIfPresent } from './read-json-file.js';
import { isRocmPerfError } from '../shared/errors.js';
import { describeReadError, probeStream, unreadableStream } from './probe-stream.js';
import { TRACE_FILE } from './run-files.js';
import { findTraceImplausibility } from './find-trace-implausibility.js';
import type { StreamInput } from './run-inputs.js';

// The one reader of a run dir's trace-<target>.json files, through the BuildKit trace parser. (Not in artifacts/:
// the parser is collect's, a layer above the artifacts.)

/** The trace files of a run dir, in name order. */
async function listTraceFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => TRACE_FILE.test(name)).sort();
}

/**
 * For the report: every trace with its stream stats; a damaged trace is a stream warning, not an error, and step
 * counts come from status-<target>.jsonl where there is one (readTraceFile). `uploadRefs` (run.json's) split each
 * target's uploads into image and cache; without them (runs recorded before issue 35) every upload is `unknown`.
 * `extents`: per target whose trace was kept, what its file's spans carry (BuildKit trace IDs, top spans).
 */
export async function readTraceFiles(
  dir: string,
  uploadRefs?: RunFile['uploadRefs'],
  check?: TraceCheck,
): Promise<{ traces: TargetTrace[]; streams: StreamInput[]; extents: Map<string, TraceExtent> }> {
  const names = await listTraceFiles(dir);
  const traces: TargetTrace[] = [];
  const streams: StreamInput[] = [];
  const extents = new Map<string, TraceExtent>();
  for (const name of names) {
    const target = TRACE_FILE.exec(name)?.[1] ?? name;
    const result = await readTraceFile(path.join(dir, name), uploadRefs?.[target], check);
    if (result.trace) traces.push(result.trace);
    if (result.trace && result.extent) extents.set(result.trace.target, result.extent);
    streams.push(result.stream);
  }
  return { traces, streams, extents };
}

/**
 * One trace-<target>.json; its step counts come from status-<target>.jsonl beside it when that stream is a
 * single-target bake's (they then agree with `history inspect`), else from the trace's step spans.
 */
/** What a trace is checked against (find-trace-implausibility.ts); without it a trace is read as it is. */
export interface TraceCheck {
  run: RunFile | undefined;
  nowMs: number;
}

export async function readTraceFile(
  file: string,
  refs?: UploadRefs,
  check?: TraceCheck,
): Promise<{ trace: TargetTrace | undefined; stream: StreamInput; extent?: TraceExtent }> {
  const name = path.basename(file);
  const target = TRACE_FILE.exec(name)?.[1] ?? name;
  const probe = await probeStream(file);
  if (probe.unreadable !== undefined)
    return { trace: undefined, stream: unreadableStream(name, probe.unreadable) };
  let text: string;
  try {
    text = await readRunFileText(file);
  } catch (error) {
    return { trace: undefined, stream: unreadableStream(name, describeReadError(error)) };
  }
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
      check === undefined ? [] : findTraceImplausibility({ name, target, extent: parsed.extent, ...check });
    const stream: StreamInput = {
      name,
      present: true,
      stats: parsed.stats,
      extraWarnings: parsed.warnings.filter((w) => !own.has(w)),
      ...(damage.length > 0 ? { damage } : {}),
    };
    if (damage.length > 0) return { trace: undefined, stream };
    const status = await readTextIfPresent(path.join(path.dirname(file), `status-${target}.jsonl`));
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
  runDir: string,
): Promise<{ traces: Map<string, TargetTrace>; warnings: string[] }> {
  const traces = new Map<string, TargetTrace>();
  const warnings: string[] = [];
  for (const name of await listTraceFiles(runDir)) {
    const target = TRACE_FILE.exec(name)?.[1];
    if (!target) continue;
    const parsed = parseBuildkitTrace(await readRunFileText(path.join(runDir, name)), {
      source: name,
      target,
    });
    warnings.push(...parsed.warnings);
    traces.set(target, parsed.trace);
  }
  return { traces, warnings };
}
