// Largest-Triangle-Three-Buckets (Steinarsson 2013): keeps the visual shape of a series in `threshold` points.
// Gaps (NaN values) wider than a bucket split the series: each side is downsampled on its own and the gap is kept as
// one null point.
// It reads columns (times and values, as the SampleTable holds them) and picks indices, so a 6-hour series of
// 21,600 samples allocates only the points it keeps.

export type SeriesPoint = [tMs: number, value: number | null];

/** One series as columns: value i (NaN: none) at time i, for i in [0, length). */
export interface SeriesColumns {
  tsMs: ArrayLike<number>;
  values: ArrayLike<number>;
  length: number;
}

/**
 * LTTB over the gap-free indices [from, to); returns at most `threshold` indices (first and last always kept).
 * @internal
 */
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
 * A series with gaps in about `threshold` points. A series that fits is returned point for point (its gaps as
 * nulls). Otherwise a gap is drawn (one null point) only where it is wider than one LTTB bucket (the series' span
 * over `threshold`): a narrower gap would not show at the chart's resolution, and drawing each one would grow the
 * page with every failed scrape of a long run. Narrower gaps are bridged: the failed samples are left out and the
 * runs on either side are downsampled as one. Every gap stays in the sample table and the report's notes. Leading
 * gaps carry no information and are dropped.
 */
export function downsampleSeries(columns: SeriesColumns, threshold: number): SeriesPoint[] {
  const runs = splitAtGaps(columns);
  if (runs.length === 0) return [];
  const total = runs.reduce((sum, [from, to]) => sum + to - from, 0);
  const pointAt = (i: number): SeriesPoint => {
    const value = columns.values[i]!;
    return [columns.tsMs[i]!, Number.isFinite(value) ? value : null];
  };
  if (total <= threshold)
    return Array.from({ length: columns.length - runs[0]![0] }, (_, i) => pointAt(runs[0]![0] + i));
  const { tsMs } = columns;
  const first = runs[0]![0];
  const last = runs[runs.length - 1]![1] - 1;
  const bucketMs = (tsMs[last]! - tsMs[first]!) / threshold;
  const groups: [number, number][][] = [[runs[0]!]];
  for (const run of runs.slice(1)) {
    const group = groups[groups.length - 1]!;
    const widthMs = tsMs[run[0]]! - tsMs[group[group.length - 1]![1] - 1]!;
    if (widthMs <= bucketMs) group.push(run);
    else groups.push([run]);
  }
  const out: SeriesPoint[] = [];
  groups.forEach((group, index) => {
    const indices = group.flatMap(([from, to]) => Array.from({ length: to - from }, (_, i) => from + i));
    if (index > 0) out.push([tsMs[indices[0]!]! - 1, null]);
    const share = Math.max(2, Math.floor((threshold * indices.length) / total));
    const compact: SeriesColumns = {
      tsMs: Float64Array.from(indices, (i) => tsMs[i]!),
      values: Float64Array.from(indices, (i) => columns.values[i]!),
      length: indices.length,
    };
    for (const i of pickLttb(compact, 0, indices.length, share)) out.push(pointAt(indices[i]!));
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
