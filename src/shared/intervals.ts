// Interval arithmetic on [start, end] pairs: merge, total length, clip. Pure. The one union in the product:
// report/ uses it for bands, node busy time and per-target upload seconds, plan/ for the ready-but-idle spans.

export type Interval = readonly [startMs: number, endMs: number];

/** Sorted, non-overlapping union; intervals closer than `joinGapMs` are joined. */
export function mergeIntervals(intervals: readonly Interval[], joinGapMs = 0): [number, number][] {
  const sorted = intervals.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + joinGapMs) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

export function totalLengthMs(intervals: readonly Interval[]): number {
  return mergeIntervals(intervals).reduce((sum, [a, b]) => sum + (b - a), 0);
}

export function clipInterval([start, end]: Interval, [from, to]: Interval): [number, number] | undefined {
  const a = Math.max(start, from);
  const b = Math.min(end, to);
  return b > a ? [a, b] : undefined;
}

export function containsPoint(merged: readonly Interval[], tMs: number): boolean {
  return merged.some(([a, b]) => tMs >= a && tMs < b);
}
