import type { SampleTable, Series } from '../artifacts/index.js';
import { downsampleSeries, type SeriesPoint } from './downsample.js';

// CPU and memory of each node as percentage series, downsampled with LTTB. A failed scrape is a gap (null).

/** Points the page draws over all its series: 24 nodes (48 series) get 500 each, 12 nodes or fewer 1,000. @internal */
export const PAGE_POINTS_TOTAL = 24_000;
/** @internal */
export const SERIES_POINTS_MAX = 1000;
/** @internal */
export const SERIES_POINTS_MIN = 250;

/** Each series' LTTB budget: an equal share of PAGE_POINTS_TOTAL, between SERIES_POINTS_MIN and _MAX. @internal */
export function buildPointsPerSeries(seriesCount: number): number {
  const share = Math.floor(PAGE_POINTS_TOTAL / Math.max(1, seriesCount));
  return Math.min(SERIES_POINTS_MAX, Math.max(SERIES_POINTS_MIN, share));
}

export interface SeriesOptions {
  samples: SampleTable;
  lanes: readonly { node: string; builder: string }[];
  /** Default: buildPointsPerSeries(the number of series drawn). */
  pointsPerSeries?: number;
}

export function buildSeries({ samples, lanes, pointsPerSeries }: SeriesOptions): Series[] {
  const sampled = lanes.filter(({ node }) => (samples.nodes.get(node)?.length ?? 0) > 0);
  const budget = pointsPerSeries ?? buildPointsPerSeries(2 * sampled.length);
  const series: Series[] = [];
  for (const { node, builder } of sampled) {
    const columns = samples.nodes.get(node)!;
    for (const metric of ['cpu', 'mem'] as const) {
      // A failed scrape has no figures (NaN in both columns), so it is a gap here as in the table.
      const values = metric === 'cpu' ? columns.cpuBusyPct : columns.memUsedPct;
      const points = downsampleSeries({ tsMs: columns.tsMs, values, length: columns.length }, budget).map(
        ([t, v]): SeriesPoint => [Math.round(t), v === null ? null : Math.round(v * 10) / 10],
      );
      series.push({ node, builder, metric, points });
    }
  }
  return series;
}
