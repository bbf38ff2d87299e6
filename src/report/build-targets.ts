import { type RunInputs } from '../run-dir/index.js';
import type { TargetTrace } from '../collect/index.js';
import type { Band, TargetOutcome, TargetSummary } from '../artifacts/index.js';
import { buildBands, isUploadSpan } from './build-bands.js';
import { totalLengthMs } from '../shared/intervals.js';

// Per-target figures and the chart's bands. A target is known from its trace, run.json or plan.json; the node
// comes from run.json, else plan.json, else `unknown` (a run dir from an older harness does not say).

export const UNKNOWN_NODE = 'unknown';

export interface TargetsResult {
  targets: TargetSummary[];
  bands: Band[];
}

export interface TargetContext {
  inputs: RunInputs;
  originMs: number;
  builderOf: (node: string) => string;
}

export function buildTargets(context: TargetContext): TargetsResult {
  const { inputs } = context;
  const traces = new Map(inputs.traces.map((trace) => [trace.target, trace]));
  const names = new Set([
    ...traces.keys(),
    ...Object.keys(inputs.run?.targets ?? {}),
    ...Object.keys(inputs.plan?.targets ?? {}),
  ]);
  const targets: TargetSummary[] = [];
  const bands: Band[] = [];
  for (const name of [...names].sort()) {
    const outcome = inputs.run?.targets[name];
    const node = outcome?.node ?? inputs.plan?.targets[name]?.node ?? UNKNOWN_NODE;
    const trace = traces.get(name);
    targets.push(buildTargetSummary({ context, name, node, trace, outcome }));
    if (trace) bands.push(...buildBands(trace, node));
    else if (outcome?.status === 'running')
      bands.push(runningBand({ name, node, startMs: outcome.startedAtMs, nowMs: inputs.generatedAtMs }));
  }
  return { targets, bands };
}

interface TargetSummaryOptions {
  context: TargetContext;
  name: string;
  node: string;
  trace: TargetTrace | undefined;
  outcome: TargetOutcome | undefined;
}

function buildTargetSummary({ context, name, node, trace, outcome }: TargetSummaryOptions): TargetSummary {
  const planned = context.inputs.plan?.targets[name];
  return {
    target: name,
    node,
    builder: context.builderOf(node),
    status: outcome?.status ?? 'unknown',
    ...spanOf(trace, outcome),
    ...traceFigures(trace),
    plannedNode: planned?.node ?? null,
    plannedStartSeconds: planned ? round(planned.startSeconds) : null,
    plannedFinishSeconds: planned ? round(planned.finishSeconds) : null,
    onCriticalPath: false,
    usage: null,
    why: null,
    partial: [],
  };
}

type TraceFigures = Pick<
  TargetSummary,
  | 'buildSeconds'
  | 'totalSeconds'
  | 'exportSeconds'
  | 'uploadSeconds'
  | 'setupExportSeconds'
  | 'uploadBytes'
  | 'uploadsWithoutSize'
  | 'cachedSteps'
  | 'totalSteps'
>;

/** What the build record says; null, never 0, while there is no record yet (pending, running, lost). */
function traceFigures(trace: TargetTrace | undefined): TraceFigures {
  if (trace === undefined)
    return {
      buildSeconds: null,
      totalSeconds: null,
      exportSeconds: null,
      uploadSeconds: null,
      setupExportSeconds: null,
      uploadBytes: null,
      uploadsWithoutSize: null,
      cachedSteps: null,
      totalSteps: null,
    };
  const uploads = trace.uploads.filter(isUploadSpan);
  // Rounded first, then subtracted: the three parts the views show add up from the figures data.json holds.
  const exportSeconds = round(Math.max(0, trace.totalSeconds - trace.buildSeconds));
  const uploadSeconds = round(totalLengthMs(uploads.map((u) => [u.startMs, u.endMs])) / 1000);
  return {
    buildSeconds: round(trace.buildSeconds),
    totalSeconds: round(trace.totalSeconds),
    exportSeconds,
    uploadSeconds,
    setupExportSeconds: round(Math.max(0, exportSeconds - uploadSeconds)),
    uploadBytes: uploads.reduce((sum, u) => sum + (u.bytes ?? 0), 0),
    uploadsWithoutSize: uploads.filter((u) => u.bytes === null).length,
    cachedSteps: trace.cachedSteps,
    totalSteps: trace.totalSteps,
  };
}

function spanOf(
  trace: TargetTrace | undefined,
  outcome: TargetOutcome | undefined,
): { startMs: number | null; endMs: number | null } {
  if (trace) return { startMs: trace.startMs, endMs: trace.endMs };
  if (outcome?.status === 'ok' || outcome?.status === 'failed' || outcome?.status === 'interrupted')
    return { startMs: outcome.startedAtMs, endMs: outcome.finishedAtMs };
  if (outcome?.status === 'running') return { startMs: outcome.startedAtMs, endMs: null };
  return { startMs: null, endMs: null };
}

function runningBand({
  name,
  node,
  startMs,
  nowMs,
}: {
  name: string;
  node: string;
  startMs: number;
  nowMs: number;
}): Band {
  return {
    target: name,
    node,
    phase: 'running',
    startMs,
    endMs: Math.max(startMs, nowMs),
    commands: [],
    bytes: null,
  };
}

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
