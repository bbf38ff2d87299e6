import { describe, expect, it } from 'vitest';
import { downsampleSeries, pickLttb, type SeriesColumns } from '../../../src/report/downsample.js';

/** Points as the columns the sample table holds (null → NaN). */
function toColumns(points: readonly (readonly [number, number | null])[]): SeriesColumns {
  return {
    tsMs: Float64Array.from(points, ([t]) => t),
    values: Float64Array.from(points, ([, v]) => v ?? Number.NaN),
    length: points.length,
  };
}

describe('pickLttb', () => {
  it('keeps short series unchanged', () => {
    expect(
      pickLttb(
        toColumns([
          [0, 1],
          [1, 2],
          [2, 3],
        ]),
        0,
        3,
        10,
      ),
    ).toEqual([0, 1, 2]);
  });

  it('keeps the first and last point and the spike, in time order', () => {
    const points = Array.from({ length: 1000 }, (_, i): [number, number] => [i * 1000, i === 500 ? 100 : 10]);
    const picked = pickLttb(toColumns(points), 0, 1000, 50);
    expect(picked).toHaveLength(50);
    expect(picked[0]).toBe(0);
    expect(picked[49]).toBe(999);
    expect(picked).toContain(500);
    expect(picked).toEqual([...picked].sort((a, b) => a - b));
  });
});

describe('downsampleSeries', () => {
  it('keeps a gap wider than one bucket as a null point between runs', () => {
    // 600 points over 630 ms in 60: a bucket is 10.5 ms, the gap 31 ms.
    const points: [number, number | null][] = [
      ...Array.from({ length: 300 }, (_, i): [number, number] => [i, i % 7]),
      ...Array.from({ length: 30 }, (_, i): [number, null] => [300 + i, null]),
      ...Array.from({ length: 300 }, (_, i): [number, number] => [330 + i, i % 5]),
    ];
    const out = downsampleSeries(toColumns(points), 60);
    const nulls = out.filter(([, v]) => v === null);
    expect(nulls).toHaveLength(1);
    expect(out.length).toBeLessThanOrEqual(61);
    const gapIndex = out.findIndex(([, v]) => v === null);
    expect(out[gapIndex - 1]![0]).toBe(299);
    expect(out[gapIndex + 1]![0]).toBe(330);
  });

  it('bridges gaps narrower than a bucket, so failed scrapes do not grow the series past its budget', () => {
    // 6 h at 1 Hz with a failed scrape every 97 s (222 single gaps) and one 60 s outage; budget 500 (a 43 s bucket).
    const points: [number, number | null][] = Array.from({ length: 21_600 }, (_, i) => [
      i * 1000,
      i % 97 === 50 || (i >= 10_000 && i < 10_060) ? null : 50 + (i % 13),
    ]);
    const out = downsampleSeries(toColumns(points), 500);
    expect(out.filter(([, v]) => v === null)).toEqual([[10_060_000 - 1, null]]);
    expect(out.length).toBeLessThanOrEqual(501);
    // No failed scrape is drawn as a value, and every kept point is a real sample.
    for (const [t, v] of out) if (v !== null) expect(v).toBe(points[t / 1000]![1]);
  });

  it('returns a series that fits point for point, its leading gaps dropped and later gaps as nulls', () => {
    const points: [number, number | null][] = [
      [0, null],
      [1, 5],
      [2, null],
      [3, null],
      [4, 7],
    ];
    expect(downsampleSeries(toColumns(points), 10)).toEqual(points.slice(1));
  });
});
