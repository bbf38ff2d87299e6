import type { Band, DataFile, NodeSummary, TargetSummary } from '../artifacts/index.js';
import { buildOtlpSpanId, buildOtlpTraceId } from './build-otlp-ids.js';
import { buildTargetDrafts, type OtlpTargetTrace, type SpanDraft } from './build-otlp-target-spans.js';
import type { OtlpSpan, OtlpTraceRequest } from './otlp-trace-schema.js';
import { toOtlpAttributes, type OtlpAttributeEntry } from './to-otlp-attributes.js';

// data.json model (+ each target's steps and BuildKit trace IDs) → one OTLP trace: a root span for the run (a CICD
// pipeline run), a span per node over its targets, and under each node its targets, their phases and steps
// (build-otlp-target-spans.ts). Ids are hashed from the run's lane and stamp, so a re-export sends the same ids.
// Resource attributes follow the OpenTelemetry semantic conventions (service.*, cicd.pipeline.*) and name the run
// under `rocm_perf.`. docs/otlp.md. Pure.

export interface BuildOtlpTraceOptions {
  model: DataFile;
  /** target → its trace-<target>.json as read (steps, BuildKit top spans); a target without one has no steps. */
  traces: ReadonlyMap<string, OtlpTargetTrace>;
  /** rocm-perf's version: `service.version`. */
  serviceVersion: string;
}

export interface OtlpExport {
  request: OtlpTraceRequest;
  traceId: string;
  spanCount: number;
  linkCount: number;
  notes: string[];
}

const OTLP_SERVICE_NAME = 'rocm-perf';

const PIPELINE_RESULT: Record<DataFile['run']['status'], string | undefined> = {
  completed: 'success',
  failed: 'failure',
  interrupted: 'cancellation',
  running: undefined,
  unknown: undefined,
};

function toPipelineName(model: DataFile): string {
  return `${OTLP_SERVICE_NAME} ${model.run.lane} ${model.run.harness}`;
}

function toPipelineResult(model: DataFile): string | undefined {
  if (model.summary.targets.some((t) => t.status === 'failed')) return 'failure';
  return PIPELINE_RESULT[model.run.status];
}

function toResourceAttributes(model: DataFile, serviceVersion: string): OtlpAttributeEntry[] {
  return [
    ['service.name', 'string', OTLP_SERVICE_NAME],
    ['service.version', 'string', serviceVersion],
    ['cicd.pipeline.name', 'string', toPipelineName(model)],
    ['cicd.pipeline.run.id', 'string', model.run.stamp],
    ['rocm_perf.lane', 'string', model.run.lane],
    ['rocm_perf.harness', 'string', model.run.harness],
    ['rocm_perf.arch', 'string', model.run.arch],
    ['rocm_perf.stamp', 'string', model.run.stamp],
    ['rocm_perf.namespace', 'string', model.run.namespace],
  ];
}

function toRunAttributes(model: DataFile): OtlpAttributeEntry[] {
  const { summary, run } = model;
  const result = toPipelineResult(model);
  return [
    ['cicd.pipeline.action.name', 'string', 'BUILD'],
    ['cicd.pipeline.result', 'string', result],
    ['error.type', 'string', result === 'failure' ? 'target_failed' : undefined],
    ['rocm_perf.status', 'string', run.status],
    ['rocm_perf.strategy', 'string', run.strategy],
    ['rocm_perf.dispatch', 'string', run.dispatch],
    ['rocm_perf.makespan_seconds', 'double', summary.makespanSeconds],
    ['rocm_perf.planned.makespan_seconds', 'double', summary.plannedMakespanSeconds],
    ['rocm_perf.lower_bound_seconds', 'double', summary.lowerBoundSeconds],
    ['rocm_perf.critical_path', 'strings', summary.criticalPath.measured],
    ['rocm_perf.forecast.p10_seconds', 'double', summary.forecast?.planned?.p10],
    ['rocm_perf.forecast.p50_seconds', 'double', summary.forecast?.planned?.p50],
    ['rocm_perf.forecast.p90_seconds', 'double', summary.forecast?.planned?.p90],
    ['rocm_perf.forecast.percentile', 'double', summary.forecast?.percentile],
  ];
}

function toNodeAttributes(node: string, summary: NodeSummary | undefined): OtlpAttributeEntry[] {
  return [
    ['host.name', 'string', node],
    ['cicd.worker.name', 'string', summary?.builder],
    ['rocm_perf.node', 'string', node],
    ['rocm_perf.busy_seconds', 'double', summary?.busySeconds],
    ['rocm_perf.idle_seconds', 'double', summary?.idleSeconds],
    ['rocm_perf.utilisation_pct', 'double', summary?.utilisationPct],
    ['rocm_perf.cpu_mean_pct', 'double', summary?.cpuMeanPct],
    ['rocm_perf.cpu_peak_pct', 'double', summary?.cpuPeakPct],
    ['rocm_perf.mem_peak_pct', 'double', summary?.memPeakPct],
    ['rocm_perf.measured_upload_mbps', 'double', summary?.measuredUploadMBps],
    ['rocm_perf.configured_link_mbps', 'double', summary?.configuredLinkMbps],
  ];
}

/** Targets with a build record (a start, and an end or still running), in start order. */
function listTimedTargets(model: DataFile): TargetSummary[] {
  return model.summary.targets
    .filter((t) => t.startMs !== null && (t.endMs !== null || t.status === 'running'))
    .sort((a, b) => a.startMs! - b.startMs! || a.target.localeCompare(b.target));
}

function buildNodeDrafts(model: DataFile, timed: readonly TargetSummary[]): SpanDraft[] {
  const nodes = [...new Set(timed.map((t) => t.node))];
  return nodes.map((node) => {
    const mine = timed.filter((t) => t.node === node);
    return {
      place: `node/${node}`,
      parent: 'run',
      name: `node ${node}`,
      kind: 'internal',
      startMs: Math.min(...mine.map((t) => t.startMs!)),
      endMs: Math.max(...mine.map((t) => t.endMs ?? model.timeline.endMs)),
      attributes: toNodeAttributes(
        node,
        model.summary.nodes.find((n) => n.node === node),
      ),
      links: [],
      error: undefined,
    };
  });
}

function buildRunDraft(model: DataFile, children: readonly SpanDraft[]): SpanDraft {
  const startMs = model.run.startedAtMs ?? model.timeline.originMs;
  const endMs = model.run.finishedAtMs ?? model.timeline.endMs;
  const result = toPipelineResult(model);
  return {
    place: 'run',
    parent: undefined,
    name: `BUILD ${toPipelineName(model)}`,
    kind: 'server',
    startMs: Math.min(startMs, ...children.map((c) => c.startMs)),
    endMs: Math.max(endMs, ...children.map((c) => c.endMs)),
    attributes: toRunAttributes(model),
    links: [],
    error: result === 'failure' ? `run ${model.run.status}` : undefined,
  };
}

/** Epoch ms (fractions of a ms kept to the µs) → unix ns; BigInt, as ns overflow 2^53. */
function toUnixNanos(ms: number): bigint {
  return BigInt(Math.round(ms * 1000)) * 1000n;
}

/**
 * A span's [start, end] in unix ns as OTLP's decimal strings. An instant (a cached step) is sent 1 ns long: Jaeger
 * rewrites a zero-length span to 1 ns as it stores each copy, so two exports of one run would no longer be the
 * identical spans its query deduplicates (docs/otlp.md).
 */
function toSpanNanos(startMs: number, endMs: number): [string, string] {
  const start = toUnixNanos(startMs);
  const end = toUnixNanos(endMs);
  return [start.toString(), (end > start ? end : start + 1n).toString()];
}

function toSpan(draft: SpanDraft, traceId: string): OtlpSpan {
  const [startTimeUnixNano, endTimeUnixNano] = toSpanNanos(draft.startMs, draft.endMs);
  return {
    traceId,
    spanId: buildOtlpSpanId(traceId, draft.place),
    ...(draft.parent === undefined ? {} : { parentSpanId: buildOtlpSpanId(traceId, draft.parent) }),
    name: draft.name,
    kind: draft.kind === 'server' ? 2 : 1,
    startTimeUnixNano,
    endTimeUnixNano,
    attributes: toOtlpAttributes(draft.attributes),
    links: draft.links,
    status: draft.error === undefined ? { code: 0 } : { code: 2, message: draft.error },
  };
}

function buildNotes(
  model: DataFile,
  timed: readonly TargetSummary[],
  traces: BuildOtlpTraceOptions['traces'],
): string[] {
  const notes: string[] = [];
  const untimed = model.summary.targets.filter((t) => !timed.includes(t)).map((t) => t.target);
  if (untimed.length > 0)
    notes.push(
      `${untimed.length} target(s) without a build record (pending, skipped or no trace) have no span: ${untimed.join(', ')}`,
    );
  const noSteps = timed.filter((t) => !traces.has(t.target)).map((t) => t.target);
  if (noSteps.length > 0) notes.push(`no trace-<target>.json, so no step spans, for ${noSteps.join(', ')}`);
  const noLinks = timed.filter((t) => (traces.get(t.target)?.buildkitSpans.length ?? 0) === 0);
  if (noLinks.length > 0)
    notes.push(
      `no BuildKit trace ID recorded for ${noLinks.map((t) => t.target).join(', ')}: those target spans have no span link`,
    );
  return notes;
}

export function buildOtlpTrace({ model, traces, serviceVersion }: BuildOtlpTraceOptions): OtlpExport {
  const traceId = buildOtlpTraceId({ lane: model.run.lane, stamp: model.run.stamp });
  const timed = listTimedTargets(model);
  const bandsOf = new Map<string, Band[]>();
  for (const band of model.timeline.bands)
    bandsOf.set(band.target, [...(bandsOf.get(band.target) ?? []), band]);
  const nodes = buildNodeDrafts(model, timed);
  const targets = timed.flatMap((summary) =>
    buildTargetDrafts({
      summary,
      model,
      bands: bandsOf.get(summary.target) ?? [],
      trace: traces.get(summary.target),
      nodePlace: `node/${summary.node}`,
    }),
  );
  const drafts = [buildRunDraft(model, [...nodes, ...targets]), ...nodes, ...targets];
  const spans = drafts.map((draft) => toSpan(draft, traceId));
  return {
    request: {
      resourceSpans: [
        {
          resource: { attributes: toOtlpAttributes(toResourceAttributes(model, serviceVersion)) },
          scopeSpans: [{ scope: { name: OTLP_SERVICE_NAME, version: serviceVersion }, spans }],
        },
      ],
    },
    traceId,
    spanCount: spans.length,
    linkCount: spans.reduce((sum, span) => sum + span.links.length, 0),
    notes: buildNotes(model, timed, traces),
  };
}
