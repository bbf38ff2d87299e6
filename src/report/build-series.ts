import type { Sample, Series } from '../artifacts/index.js';
import { downsampleSeries, type SeriesPoint } from './downsample.js';

// CPU and memory of each node as percentage series, downsampled with LTTB. A failed scrape is a gap (null).

export interface SeriesOptions {
  samples: readonly Sample[];
  lanes: readonly { node: string; builder: string }[];
  pointsPerSeries: number;
}

export function buildSeries({ samples, lanes, pointsPerSeries }: SeriesOptions): Series[] {
  const byNode = new Map<string, Sample[]>();
  for (const sample of samples) {
    const list = byNode.get(sample.node) ?? [];
    list.push(sample);
    byNode.set(sample.node, list);
  }
  const series: Series[] = [];
  for (const { node, builder } of lanes) {
    const mine = (byNode.get(node) ?? []).sort((a, b) => a.tsMs - b.tsMs);
    if (mine.length === 0) continue;
    for (const metric of ['cpu', 'mem'] as const) {
      const raw: SeriesPoint[] = mine.map((s) => [
        s.tsMs,
        s.ok ? (metric === 'cpu' ? s.cpuBusyPct : s.memUsedPct) : null,
      ]);
      const points = downsampleSeries(trimGaps(raw), pointsPerSeries).map(([t, v]): SeriesPoint => [
        Math.round(t),
        v === null ? null : Math.round(v * 10) / 10,
      ]);
      series.push({ node, builder, metric, points });
    }
  }
  return series;
}

/** Leading nulls (the first scrape has no rate yet) carry no information; drop them. */
function trimGaps(points: SeriesPoint[]): SeriesPoint[] {
  const first = points.findIndex(([, v]) => v !== null);
  return first < 0 ? [] : points.slice(first);
}
