import type { Band, DataFile, TargetSummary } from '../artifacts/index.js';
import type { TargetTrace, TraceStep } from '../collect/index.js';
import type { OtlpLink } from './otlp-trace-schema.js';
import { toOtlpAttributes, type OtlpAttributeEntry } from './to-otlp-attributes.js';

// One target of a run → its OTLP span drafts: the target (a CICD task run, child of its node), a span per phase band
// of data.json's timeline (setup, steps, upload, export), and a span per step of its build record under the steps
// band that holds it. Links point at the BuildKit spans its trace-<target>.json starts at. Pure.

/** A span before ids: `place` names it within the run (hashed into its span id), `parent` its parent's place. */
export interface SpanDraft {
  place: string;
  parent: string | undefined;
  name: string;
  kind: 'internal' | 'server';
  startMs: number;
  endMs: number;
  attributes: OtlpAttributeEntry[];
  links: OtlpLink[];
  error: string | undefined;
}

/** A BuildKit span a target's record holds at its top (`bake pytorch`): the other end of a span link. */
interface BuildkitSpanRef {
  traceId: string;
  spanId: string;
  name: string;
}

/** What the target's trace-<target>.json adds to data.json: its steps and the BuildKit spans to link to. */
export interface OtlpTargetTrace {
  trace: TargetTrace;
  buildkitSpans: readonly BuildkitSpanRef[];
}

const TASK_RESULT: Partial<Record<TargetSummary['status'], string>> = {
  ok: 'success',
  failed: 'failure',
  interrupted: 'cancellation',
  skipped: 'skip',
};

const targetPlace = (target: string): string => `target/${target}`;

function toTargetAttributes(t: TargetSummary): OtlpAttributeEntry[] {
  return [
    ['cicd.pipeline.task.name', 'string', t.target],
    ['cicd.pipeline.task.type', 'string', 'build'],
    ['cicd.pipeline.task.run.result', 'string', TASK_RESULT[t.status]],
    ['host.name', 'string', t.node],
    ['rocm_perf.target', 'string', t.target],
    ['rocm_perf.status', 'string', t.status],
    ['rocm_perf.build_seconds', 'double', t.buildSeconds],
    ['rocm_perf.total_seconds', 'double', t.totalSeconds],
    ['rocm_perf.upload_seconds', 'double', t.uploadSeconds],
    ['rocm_perf.setup_export_seconds', 'double', t.setupExportSeconds],
    ['rocm_perf.upload_bytes', 'int', t.uploadBytes],
    ['rocm_perf.cached_steps', 'int', t.cachedSteps],
    ['rocm_perf.total_steps', 'int', t.totalSteps],
    ['rocm_perf.planned.node', 'string', t.plannedNode],
    ['rocm_perf.planned.start_seconds', 'double', t.plannedStartSeconds],
    ['rocm_perf.planned.finish_seconds', 'double', t.plannedFinishSeconds],
    ['rocm_perf.on_critical_path', 'bool', t.onCriticalPath],
    ['rocm_perf.partial', 'strings', t.partial],
  ];
}

function toLinks(refs: readonly BuildkitSpanRef[]): OtlpLink[] {
  return refs.map((ref) => ({
    traceId: ref.traceId,
    spanId: ref.spanId,
    attributes: toOtlpAttributes([
      ['rocm_perf.link', 'string', 'buildkit'],
      ['rocm_perf.buildkit.span_name', 'string', ref.name],
    ]),
  }));
}

/** The steps band a step is listed under in data.json (build-bands.ts `describe`): it overlaps, or is an instant inside. */
function isStepInBand(step: TraceStep, band: Band): boolean {
  if (step.startMs === step.endMs) return step.startMs >= band.startMs && step.startMs < band.endMs;
  return step.startMs < band.endMs && band.startMs < step.endMs;
}

function buildStepDrafts(target: string, steps: readonly TraceStep[], bands: readonly Band[]): SpanDraft[] {
  return steps.map((step, index) => {
    const band = bands.findIndex((b) => b.phase === 'steps' && isStepInBand(step, b));
    return {
      place: `step/${target}/${index}`,
      parent: band === -1 ? targetPlace(target) : `phase/${target}/${band}`,
      name: step.instruction ?? step.name,
      kind: 'internal',
      startMs: step.startMs,
      endMs: step.endMs,
      attributes: [
        ['rocm_perf.step.name', 'string', step.name],
        ['rocm_perf.step.cached', 'bool', step.cached],
      ],
      links: [],
      error: step.failed === true ? 'the step failed' : undefined,
    };
  });
}

/** The trace's steps moved onto data.json's clock: the report shifted the record so it starts at the target's start. */
function alignSteps(summary: TargetSummary, trace: TargetTrace | undefined): TraceStep[] {
  if (!trace || summary.startMs === null) return [];
  const offsetMs = summary.startMs - trace.startMs;
  return trace.steps.map((s) => ({ ...s, startMs: s.startMs + offsetMs, endMs: s.endMs + offsetMs }));
}

export interface BuildTargetDraftsOptions {
  summary: TargetSummary;
  model: DataFile;
  bands: readonly Band[];
  trace: OtlpTargetTrace | undefined;
  nodePlace: string;
}

export function buildTargetDrafts({
  summary,
  model,
  bands,
  trace,
  nodePlace,
}: BuildTargetDraftsOptions): SpanDraft[] {
  const target = summary.target;
  const failed = summary.status === 'failed' || summary.status === 'interrupted';
  const root: SpanDraft = {
    place: targetPlace(target),
    parent: nodePlace,
    name: target,
    kind: 'internal',
    startMs: summary.startMs!,
    endMs: summary.endMs ?? model.timeline.endMs,
    attributes: toTargetAttributes(summary),
    links: toLinks(trace?.buildkitSpans ?? []),
    error: failed ? `target ${summary.status}` : undefined,
  };
  const phases = bands.map((band, index): SpanDraft => ({
    place: `phase/${target}/${index}`,
    parent: targetPlace(target),
    name: band.phase,
    kind: 'internal',
    startMs: band.startMs,
    endMs: band.endMs,
    attributes: [
      ['rocm_perf.phase', 'string', band.phase],
      ['rocm_perf.phase.commands', 'strings', band.commands],
      ['rocm_perf.phase.bytes', 'int', band.bytes],
    ],
    links: [],
    error: undefined,
  }));
  return [root, ...phases, ...buildStepDrafts(target, alignSteps(summary, trace?.trace), bands)];
}
