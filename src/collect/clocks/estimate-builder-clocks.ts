import type { BuilderClock } from '../../artifacts/index.js';
import type { TargetTrace } from '../types.js';
import type { ClockOffset } from './estimate-clock-offset.js';

// A builder's clock, from its build records. The workstation launched each bake at startedAtMs and saw it exit at
// finishedAtMs (its own clock); the builder recorded the build in between (the builder's clock). So for every
// record, recordEnd − finished ≤ offset ≤ recordStart − started, and all of a builder's records together bound its
// offset from both sides. Within those bounds the node's measured clock (node_exporter's node_time_seconds; the
// builder runs on that node) is the better figure, and with no measurement an offset of 0 is; only when the records
// rule that out does the bound's midpoint become the estimate.

export interface BuildWindow {
  node: string;
  /** The workstation's clock: the bake launched, and exited. */
  startedAtMs: number;
  finishedAtMs: number;
  /** The builder's clock: the target's record. */
  recordStartMs: number;
  recordEndMs: number;
}

export interface EstimateBuilderClocksOptions {
  windows: readonly BuildWindow[];
  /** Each node's measured clock offset (averaged over the run), when it was measured. */
  nodeOffsets: ReadonlyMap<string, ClockOffset>;
}

export function estimateBuilderClocks({
  windows,
  nodeOffsets,
}: EstimateBuilderClocksOptions): BuilderClock[] {
  const byNode = new Map<string, BuildWindow[]>();
  for (const window of windows) byNode.set(window.node, [...(byNode.get(window.node) ?? []), window]);
  const nodes = [...new Set([...byNode.keys(), ...nodeOffsets.keys()])].sort();
  return nodes.map((node) => estimateOne(node, byNode.get(node) ?? [], nodeOffsets.get(node)));
}

function estimateOne(
  node: string,
  windows: readonly BuildWindow[],
  measured: ClockOffset | undefined,
): BuilderClock {
  const fallback = { offsetMs: measured?.offsetMs ?? 0, uncertaintyMs: measured?.uncertaintyMs ?? 0 };
  const source = measured ? ('node clock' as const) : ('workstation clock' as const);
  if (windows.length === 0) return { node, ...fallback, source, records: 0 };
  const low = Math.max(...windows.map((w) => w.recordEndMs - w.finishedAtMs));
  const high = Math.min(...windows.map((w) => w.recordStartMs - w.startedAtMs));
  const slack = fallback.uncertaintyMs;
  if (fallback.offsetMs >= low - slack && fallback.offsetMs <= high + slack)
    return { node, ...fallback, source, records: windows.length };
  return {
    node,
    offsetMs: round((low + high) / 2),
    uncertaintyMs: round(Math.abs(high - low) / 2),
    source: 'build records',
    records: windows.length,
  };
}

/** The windows to estimate from: every finished target with a trace, on the node it ran on. */
export function toBuildWindows(
  targets: Readonly<Record<string, { node: string; startedAtMs?: number; finishedAtMs?: number }>>,
  traces: readonly Pick<TargetTrace, 'target' | 'startMs' | 'endMs'>[],
): BuildWindow[] {
  return traces.flatMap((trace) => {
    const outcome = targets[trace.target];
    if (outcome?.startedAtMs === undefined || outcome.finishedAtMs === undefined) return [];
    return [
      {
        node: outcome.node,
        startedAtMs: outcome.startedAtMs,
        finishedAtMs: outcome.finishedAtMs,
        recordStartMs: trace.startMs,
        recordEndMs: trace.endMs,
      },
    ];
  });
}

/** The trace on the workstation's clock: every time moved by −offsetMs. */
export function shiftTrace(trace: TargetTrace, offsetMs: number): TargetTrace {
  if (offsetMs === 0) return trace;
  const shift = (ms: number) => ms - offsetMs;
  return {
    ...trace,
    startMs: shift(trace.startMs),
    endMs: shift(trace.endMs),
    buildStartMs: trace.buildStartMs === undefined ? undefined : shift(trace.buildStartMs),
    buildEndMs: trace.buildEndMs === undefined ? undefined : shift(trace.buildEndMs),
    steps: trace.steps.map((step) => ({ ...step, startMs: shift(step.startMs), endMs: shift(step.endMs) })),
    uploads: trace.uploads.map((upload) => ({
      ...upload,
      startMs: shift(upload.startMs),
      endMs: shift(upload.endMs),
    })),
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
