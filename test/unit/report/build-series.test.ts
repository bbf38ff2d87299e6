import { describe, expect, it } from 'vitest';
import { createSampleTable, type Sample } from '../../../src/artifacts/index.js';
import {
  buildPointsPerSeries,
  buildSeries,
  PAGE_POINTS_TOTAL,
  SERIES_POINTS_MAX,
  SERIES_POINTS_MIN,
} from '../../../src/report/build-series.js';

// The page's point budget is shared by all its series, so 24 nodes draw as many points as 12 (its first paint grows
// with the points ECharts draws and the page's zod check validates).

function sampleAt(node: string, tsMs: number): Sample {
  return {
    version: 1,
    node,
    tsMs,
    ok: true,
    cpuBusyPct: (tsMs / 1000) % 97,
    memUsedPct: 40,
    diskReadBps: 0,
    diskWriteBps: 0,
    netRxBps: 0,
    netTxBps: 0,
    load1: 1,
  };
}

describe('buildPointsPerSeries', () => {
  it.each([
    [2, SERIES_POINTS_MAX],
    [24, 1000],
    [30, 800],
    [48, 500],
    [96, 250],
    [500, SERIES_POINTS_MIN],
  ])('%i series get %i points each', (count, points) => {
    expect(buildPointsPerSeries(count)).toBe(points);
  });
});

describe('buildSeries', () => {
  it('downsamples 24 nodes to 500 points a series, 24,000 in all', () => {
    const lanes = Array.from({ length: 24 }, (_, i) => ({ node: `n${i}`, builder: `n${i}-builder` }));
    const samples = lanes.flatMap(({ node }) =>
      Array.from({ length: 800 }, (_, i) => sampleAt(node, 1_000_000 + i * 1000)),
    );
    const series = buildSeries({ samples: createSampleTable(samples), lanes });
    expect(series).toHaveLength(48);
    expect(new Set(series.map((one) => one.points.length))).toEqual(new Set([500]));
    expect(series.reduce((sum, one) => sum + one.points.length, 0)).toBe(PAGE_POINTS_TOTAL);
  });

  it('keeps 1,000 points a series at 12 nodes or fewer', () => {
    const lanes = [{ node: 'forge', builder: 'forge-builder' }];
    const samples = Array.from({ length: 3000 }, (_, i) => sampleAt('forge', i * 1000));
    expect(
      buildSeries({ samples: createSampleTable(samples), lanes }).map((one) => one.points.length),
    ).toEqual([1000, 1000]);
  });
});
