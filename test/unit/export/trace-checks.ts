import {
  type CompleteEvent,
  type FlowEndEvent,
  type FlowStartEvent,
  type PerfettoTrace,
  type TraceEvent,
} from '../../../src/export/trace-event-schema.js';

// Independent checks of a trace, written from the Trace Event Format and Perfetto's importer, to hold the
// exporter (and its own findTraceProblems) to: X slices on one tid nest, flows pair up inside slices.

/** For each tid, its X slices sorted by ts (longer first); returns the pairs that overlap without nesting. */
export function findPartialOverlaps(events: readonly TraceEvent[]): string[] {
  const byTid = new Map<number, CompleteEvent[]>();
  for (const e of events) if (e.ph === 'X') byTid.set(e.tid, [...(byTid.get(e.tid) ?? []), e]);
  const bad: string[] = [];
  for (const [tid, slices] of byTid) {
    slices.sort((x, y) => x.ts - y.ts || y.dur - x.dur);
    for (let i = 0; i < slices.length; i++) {
      for (let j = i + 1; j < slices.length; j++) {
        const [a, b] = [slices[i]!, slices[j]!];
        if (b.ts >= a.ts + a.dur) break;
        if (b.ts + b.dur > a.ts + a.dur)
          bad.push(`tid ${tid}: ${a.name}@${a.ts}+${a.dur} / ${b.name}@${b.ts}+${b.dur}`);
      }
    }
  }
  return bad;
}

export function flowPairs(
  trace: PerfettoTrace,
): { id: number; start: FlowStartEvent; end: FlowEndEvent | undefined }[] {
  const starts = trace.traceEvents.filter((e): e is FlowStartEvent => e.ph === 's');
  const ends = trace.traceEvents.filter((e): e is FlowEndEvent => e.ph === 'f');
  return starts.map((start) => ({ id: start.id, start, end: ends.find((e) => e.id === start.id) }));
}

export function enclosingSlice(
  trace: PerfettoTrace,
  at: { pid: number; tid: number; ts: number },
): CompleteEvent | undefined {
  return trace.traceEvents
    .filter(
      (e): e is CompleteEvent =>
        e.ph === 'X' && e.pid === at.pid && e.tid === at.tid && e.ts <= at.ts && at.ts < e.ts + e.dur,
    )
    .sort((x, y) => x.dur - y.dur)[0];
}
