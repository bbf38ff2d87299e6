import { ParseError } from '../../shared/errors.js';
import { type TargetTrace } from '../types.js';
import { createStreamStats, findStreamWarnings, type StreamStats } from '../../artifacts/index.js';
import { buildTraceUploads } from './build-trace-uploads.js';
import { isStepSpan, toTraceStep } from './build-trace-steps.js';
import { findTargetSolve } from './find-target-solve.js';
import { decodeJaegerTrace, isJaegerDocument } from './parse-jaeger-trace.js';
import { decodeOtlpTrace, isOtlpDocument } from './parse-otlp-trace.js';
import { decodeSpanStream, decodeSpanStubArray, isSpanStub } from './parse-span-stream.js';
import { buildSpanTree } from './span-tree.js';
import type { DecodedSpans, TraceSpan } from './trace-span.js';

// A BuildKit build record's trace → one target's TargetTrace. Accepts the stored span stream (concatenated
// OTel Go SDK span stubs), `docker buildx history trace` Jaeger JSON and OTLP/JSON. Stats count span objects
// as lines: records = spans of this target's record, skipped = spans of sibling targets' solves, rejected =
// span objects that could not be read.

export interface ParseBuildkitTraceOptions {
  /** File name or label for stats and errors, e.g. `trace-triton-wheel.json`. */
  source: string;
  /** The bake target; picks its solve when sibling targets share the record's trace. */
  target?: string | undefined;
  /** The target's Dockerfile stage (bake `target` field) when it differs from the bake target name. */
  stage?: string | undefined;
  /** cache-to refs (`reg/rocm/cache:triton`): uploads to these are cache exports. */
  cacheRefs?: readonly string[] | undefined;
  /** Image tags the target pushes. */
  imageRefs?: readonly string[] | undefined;
}

export interface ParsedBuildkitTrace {
  trace: TargetTrace;
  stats: StreamStats;
  /** findStreamWarnings plus attribution warnings; show them, never drop them. */
  warnings: string[];
  encoding: DecodedSpans['encoding'];
  /** What every span of the file says about where it came from and when: for the report's plausibility checks. */
  extent: TraceExtent;
}

/**
 * Over every decoded span (siblings' too): the time they cover, the trace IDs they carry, and the impossible ones.
 * Times apart by clock: the builder's spans (buildkitd's: its clock) and buildx's own (sent from this workstation,
 * so on its clock; docs/real-buildkit.md).
 */
export interface TraceExtent {
  startMs: number | undefined;
  endMs: number | undefined;
  /** buildx's own spans, on the workstation's clock. */
  clientStartMs?: number | undefined;
  clientEndMs?: number | undefined;
  traceIds: string[];
  /** The spans whose parent is not in the file (the record's top spans, e.g. buildx's `bake <target>`), by start. */
  roots: { traceId: string; spanId: string; name: string }[];
  /** Spans that end before they start. */
  negativeSpans: number;
  /** The first such span, said for a warning: name and duration. */
  firstNegative: string | undefined;
}

/** Pure: the extent of a list of spans. */
function buildTraceExtent(spans: readonly TraceSpan[]): TraceExtent {
  const times = { builder: [undefined, undefined], client: [undefined, undefined] } as Record<
    'builder' | 'client',
    [number | undefined, number | undefined]
  >;
  let negativeSpans = 0;
  let firstNegative: string | undefined;
  const traceIds = new Set<string>();
  for (const span of spans) {
    if (span.traceId !== '' && !/^0+$/.test(span.traceId)) traceIds.add(span.traceId);
    if (span.endMs < span.startMs) {
      negativeSpans += 1;
      firstNegative ??= `${span.name}, ${(span.endMs - span.startMs).toFixed(3)} ms`;
    }
    const range = times[span.service === 'buildx' ? 'client' : 'builder'];
    range[0] = Math.min(range[0] ?? span.startMs, span.startMs);
    range[1] = Math.max(range[1] ?? span.startMs, span.startMs, span.endMs);
  }
  const [startMs, endMs] = times.builder;
  const [clientStartMs, clientEndMs] = times.client;
  const ids = new Set(spans.map((span) => span.spanId));
  const roots = spans
    .filter((span) => span.parentId === undefined || !ids.has(span.parentId))
    .sort((a, b) => a.startMs - b.startMs || a.spanId.localeCompare(b.spanId))
    .map(({ traceId, spanId, name }) => ({ traceId, spanId, name }));
  return {
    startMs,
    endMs,
    ...(clientStartMs === undefined ? {} : { clientStartMs, clientEndMs }),
    traceIds: [...traceIds].sort(),
    roots,
    negativeSpans,
    firstNegative,
  };
}

export function parseBuildkitTrace(text: string, options: ParseBuildkitTraceOptions): ParsedBuildkitTrace {
  const decoded = decodeTrace(text, options.source);
  const stats = createStreamStats(options.source);
  stats.bytes = Buffer.byteLength(text, 'utf8');
  stats.lines = decoded.seen;
  stats.rejected = decoded.rejected.length;
  stats.rejectedExamples = decoded.rejected.slice(0, 5);
  const tree = buildSpanTree(decoded.spans);
  const solve = findTargetSolve(decoded.spans, tree, { target: options.target, stage: options.stage });
  const own = decoded.spans.filter((span) => !solve.siblingIds.has(span.spanId));
  stats.records = own.length;
  if (solve.siblingIds.size > 0) {
    stats.skipped = decoded.spans.length - own.length;
    stats.skippedByReason['sibling target'] = stats.skipped;
  }
  const inSolve = decoded.spans.filter((span) => solve.ownIds.has(span.spanId));
  const trace = buildTargetTrace({
    target: options.target ?? '',
    record: toRecordWindow(solve.roots, tree) ?? toExtent(decoded.spans),
    inSolve,
    tree,
    options,
  });
  const warnings = [...findStreamWarnings(stats), ...solve.warnings];
  if (decoded.spans.length === 0)
    warnings.push(`${options.source}: the trace holds no spans; build, total and upload figures are missing`);
  else if (trace.totalSteps === 0)
    warnings.push(
      `${options.source}: ${decoded.spans.length} spans but no step spans under a Solve; build time is unknown`,
    );
  return { trace, stats, warnings, encoding: decoded.encoding, extent: buildTraceExtent(decoded.spans) };
}

const TRACE_HINT =
  'the file is damaged or not a BuildKit trace: restore it from the run host, or export the build record again with `docker buildx history export --finalize`';

function decodeTrace(text: string, source: string): DecodedSpans {
  const trimmed = text.trimStart();
  if (trimmed === '') {
    throw new ParseError(source, undefined, 'empty trace', {
      hint: 'BuildKit writes the trace up to 3 s after the build; export the record with `docker buildx history export --finalize`',
    });
  }
  const first = trimmed[0];
  if (first !== '{' && first !== '[')
    throw new ParseError(
      source,
      1,
      `not a trace: expected JSON, got ${JSON.stringify(trimmed.slice(0, 20))}`,
      { hint: TRACE_HINT },
    );
  const document = tryParseJson(text);
  const decoded = document === undefined ? decodeSpanStream(text) : decodeDocument(document, source);
  if (decoded.seen > 0 && decoded.spans.length === 0) {
    const firstReason = decoded.rejected[0];
    throw new ParseError(
      source,
      firstReason?.line,
      `none of the ${decoded.seen} span objects could be read: ${firstReason?.reason ?? ''}`,
      { hint: TRACE_HINT },
    );
  }
  return decoded;
}

function decodeDocument(document: unknown, source: string): DecodedSpans {
  if (Array.isArray(document)) return decodeSpanStubArray(document);
  if (isJaegerDocument(document)) return decodeJaegerTrace(document);
  if (isOtlpDocument(document)) return decodeOtlpTrace(document);
  if (isSpanStub(document)) return decodeSpanStubArray([document]);
  const keys =
    typeof document === 'object' && document !== null
      ? Object.keys(document).slice(0, 5).join(', ')
      : typeof document;
  throw new ParseError(
    source,
    1,
    `not a known trace encoding (top-level keys: ${keys || 'none'}); expected a BuildKit span stream, Jaeger {"data":[…]} or OTLP {"resourceSpans":[…]}`,
    { hint: TRACE_HINT },
  );
}

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

interface BuildTargetTraceInput {
  target: string;
  /** The build record's window: toRecordWindow, else the extent of every span. */
  record: [number | undefined, number | undefined];
  inSolve: readonly TraceSpan[];
  tree: ReturnType<typeof buildSpanTree>;
  options: ParseBuildkitTraceOptions;
}

function buildTargetTrace({ target, record, inSolve, tree, options }: BuildTargetTraceInput): TargetTrace {
  const steps = inSolve
    .filter(isStepSpan)
    .map(toTraceStep)
    .sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const [buildStartMs, buildEndMs] = toExtent(steps);
  // The steps stay inside the record, so build ≤ total and the report's export = total − build holds.
  const startMs = minDefined(record[0], buildStartMs);
  const endMs = maxDefined(record[1], buildEndMs);
  return {
    target,
    startMs: startMs ?? 0,
    endMs: endMs ?? 0,
    totalSeconds: toSeconds(startMs, endMs),
    buildStartMs,
    buildEndMs,
    buildSeconds: toSeconds(buildStartMs, buildEndMs),
    steps,
    uploads: buildTraceUploads(inSolve, tree, {
      cacheRefs: options.cacheRefs ?? [],
      imageRefs: options.imageRefs ?? [],
    }),
    cachedSteps: steps.filter((step) => step.cached).length,
    totalSteps: steps.length,
  };
}

/**
 * The build record `history inspect` reports (StartedAt to CompletedAt), from the target's Control/Solve server
 * spans: each starts at its Solve (StartedAt is 0.2–0.4 ms later) and ends where the daemon starts `create history
 * record` (CompletedAt, within 0.05 ms), else at the Solve's end. Only daemon spans, so one clock: buildx's own
 * `bake` and `build` spans run on the client's clock and add its setup (docs/real-buildkit.md). Undefined
 * without a Solve server span.
 */
function toRecordWindow(
  roots: readonly TraceSpan[],
  tree: ReturnType<typeof buildSpanTree>,
): [number, number] | undefined {
  if (roots.length === 0) return undefined;
  const ends = roots.map((root) => {
    const record = (tree.children.get(root.spanId) ?? []).filter((span) => span.name === historyRecordSpan);
    return record.length === 0 ? root.endMs : Math.max(...record.map((span) => span.startMs));
  });
  return [Math.min(...roots.map((root) => root.startMs)), Math.max(...ends)];
}

const historyRecordSpan = 'create history record';

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

function toExtent(
  items: readonly { startMs: number; endMs: number }[],
): [number | undefined, number | undefined] {
  if (items.length === 0) return [undefined, undefined];
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    if (item.startMs < start) start = item.startMs;
    if (item.endMs > end) end = item.endMs;
  }
  return [start, end];
}

function toSeconds(startMs: number | undefined, endMs: number | undefined): number {
  return startMs === undefined || endMs === undefined ? 0 : Math.max(0, endMs - startMs) / 1000;
}
