// Largest-Triangle-Three-Buckets (Steinarsson 2013): keeps the visual shape of a series in `threshold` points.
// Gaps (null values) split the series; each run is downsampled on its own and the gap is kept as one null point.

export type SeriesPoint = [tMs: number, value: number | null];

/** LTTB on one gap-free run of points, returning at most `threshold` points (first and last always kept). */
export function downsampleLttb(points: readonly [number, number][], threshold: number): [number, number][] {
  if (threshold >= points.length || threshold <= 2) {
    return threshold <= 2 && points.length > 2 ? keepEnds(points) : points.map(([t, v]) => [t, v]);
  }
  const out: [number, number][] = [copy(points[0]!)];
  const bucketSize = (points.length - 2) / (threshold - 2);
  let anchor = 0;
  for (let bucket = 0; bucket < threshold - 2; bucket++) {
    const start = Math.floor(bucket * bucketSize) + 1;
    const end = Math.min(Math.floor((bucket + 1) * bucketSize) + 1, points.length - 1);
    const [avgT, avgV] = averageOf(
      points,
      end,
      Math.min(Math.floor((bucket + 2) * bucketSize) + 1, points.length),
    );
    anchor = pickLargestTriangle({ points, anchor, start, end, avgT, avgV });
    out.push(copy(points[anchor]!));
  }
  out.push(copy(points[points.length - 1]!));
  return out;
}

function keepEnds(points: readonly [number, number][]): [number, number][] {
  return [copy(points[0]!), copy(points[points.length - 1]!)];
}

function copy(point: readonly [number, number]): [number, number] {
  return [point[0], point[1]];
}

function averageOf(points: readonly [number, number][], from: number, to: number): [number, number] {
  const count = Math.max(to - from, 1);
  let sumT = 0;
  let sumV = 0;
  for (let i = from; i < to; i++) {
    sumT += points[i]![0];
    sumV += points[i]![1];
  }
  if (to <= from) return copy(points[points.length - 1]!);
  return [sumT / count, sumV / count];
}

interface TriangleSearch {
  points: readonly [number, number][];
  anchor: number;
  start: number;
  end: number;
  avgT: number;
  avgV: number;
}

function pickLargestTriangle({ points, anchor, start, end, avgT, avgV }: TriangleSearch): number {
  const [aT, aV] = points[anchor]!;
  let best = start;
  let bestArea = -1;
  for (let i = start; i < end; i++) {
    const [t, v] = points[i]!;
    const area = Math.abs((aT - avgT) * (v - aV) - (aT - t) * (avgV - aV));
    if (area > bestArea) {
      bestArea = area;
      best = i;
    }
  }
  return best;
}

/** Downsample a series with gaps: the point budget is shared across gap-free runs by length. */
export function downsampleSeries(points: readonly SeriesPoint[], threshold: number): SeriesPoint[] {
  const runs = splitAtGaps(points);
  const total = runs.reduce((sum, run) => sum + run.length, 0);
  if (total <= threshold) return points.map(([t, v]) => [t, v]);
  const out: SeriesPoint[] = [];
  runs.forEach((run, index) => {
    if (index > 0) out.push([run[0]![0] - 1, null]);
    const share = Math.max(2, Math.floor((threshold * run.length) / total));
    out.push(...downsampleLttb(run, share));
  });
  return out;
}

function splitAtGaps(points: readonly SeriesPoint[]): [number, number][][] {
  const runs: [number, number][][] = [];
  let current: [number, number][] = [];
  for (const [t, v] of points) {
    if (v === null || !Number.isFinite(v)) {
      if (current.length > 0) runs.push(current);
      current = [];
    } else {
      current.push([t, v]);
    }
  }
  if (current.length > 0) runs.push(current);
  return runs;
}
