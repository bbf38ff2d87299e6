// Largest-Triangle-Three-Buckets (Steinarsson 2013): keeps the visual shape of a series in `threshold` points.
// Gaps (NaN values) split the series; each run is downsampled on its own and the gap is kept as one null point.
// It reads columns (times and values, as the SampleTable holds them) and picks indices, so a 6-hour series of
// 21,600 samples allocates only the points it keeps.

export type SeriesPoint = [tMs: number, value: number | null];

/** One series as columns: value i (NaN: none) at time i, for i in [0, length). */
export interface SeriesColumns {
  tsMs: ArrayLike<number>;
  values: ArrayLike<number>;
  length: number;
}

/** LTTB over the gap-free indices [from, to); returns at most `threshold` indices (first and last always kept). */
export function pickLttb(columns: SeriesColumns, from: number, to: number, threshold: number): number[] {
  const count = to - from;
  if (threshold >= count || threshold <= 2) {
    if (threshold <= 2 && count > 2) return [from, to - 1];
    return Array.from({ length: count }, (_, i) => from + i);
  }
  const { tsMs, values } = columns;
  const picked = [from];
  const bucketSize = (count - 2) / (threshold - 2);
  let anchor = from;
  for (let bucket = 0; bucket < threshold - 2; bucket++) {
    const start = from + Math.floor(bucket * bucketSize) + 1;
    const end = Math.min(from + Math.floor((bucket + 1) * bucketSize) + 1, to - 1);
    const nextEnd = Math.min(from + Math.floor((bucket + 2) * bucketSize) + 1, to);
    let [avgT, avgV] = [tsMs[to - 1]!, values[to - 1]!];
    if (nextEnd > end) {
      let [sumT, sumV] = [0, 0];
      for (let i = end; i < nextEnd; i++) {
        sumT += tsMs[i]!;
        sumV += values[i]!;
      }
      [avgT, avgV] = [sumT / (nextEnd - end), sumV / (nextEnd - end)];
    }
    const [aT, aV] = [tsMs[anchor]!, values[anchor]!];
    let best = start;
    let bestArea = -1;
    for (let i = start; i < end; i++) {
      const area = Math.abs((aT - avgT) * (values[i]! - aV) - (aT - tsMs[i]!) * (avgV - aV));
      if (area > bestArea) {
        bestArea = area;
        best = i;
      }
    }
    anchor = best;
    picked.push(best);
  }
  picked.push(to - 1);
  return picked;
}

/**
 * A series with gaps in at most `threshold` points, shared across its gap-free runs by length. Leading gaps carry no
 * information and are dropped; a series that fits is returned point for point (its gaps as nulls).
 */
export function downsampleSeries(columns: SeriesColumns, threshold: number): SeriesPoint[] {
  const runs = splitAtGaps(columns);
  const total = runs.reduce((sum, [from, to]) => sum + to - from, 0);
  const pointAt = (i: number): SeriesPoint => {
    const value = columns.values[i]!;
    return [columns.tsMs[i]!, Number.isFinite(value) ? value : null];
  };
  if (runs.length === 0) return [];
  if (total <= threshold)
    return Array.from({ length: columns.length - runs[0]![0] }, (_, i) => pointAt(runs[0]![0] + i));
  const out: SeriesPoint[] = [];
  runs.forEach(([from, to], index) => {
    if (index > 0) out.push([columns.tsMs[from]! - 1, null]);
    const share = Math.max(2, Math.floor((threshold * (to - from)) / total));
    for (const i of pickLttb(columns, from, to, share)) out.push(pointAt(i));
  });
  return out;
}

/** The gap-free runs as index ranges [from, to). */
function splitAtGaps({ values, length }: SeriesColumns): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  for (let i = 0; i < length; i++) {
    const finite = Number.isFinite(values[i]!);
    if (finite && start < 0) start = i;
    if (!finite && start >= 0) {
      runs.push([start, i]);
      start = -1;
    }
  }
  if (start >= 0) runs.push([start, length]);
  return runs;
}
