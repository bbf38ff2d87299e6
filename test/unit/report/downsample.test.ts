import { describe, expect, it } from 'vitest';
import { downsampleLttb, downsampleSeries } from '../../../src/report/downsample.js';

describe('downsampleLttb', () => {
  it('keeps short series unchanged', () => {
    const points: [number, number][] = [
      [0, 1],
      [1, 2],
      [2, 3],
    ];
    expect(downsampleLttb(points, 10)).toEqual(points);
  });

  it('keeps the first and last point and the spike', () => {
    const points: [number, number][] = Array.from({ length: 1000 }, (_, i) => [
      i * 1000,
      i === 500 ? 100 : 10,
    ]);
    const out = downsampleLttb(points, 50);
    expect(out).toHaveLength(50);
    expect(out[0]).toEqual([0, 10]);
    expect(out[49]).toEqual([999_000, 10]);
    expect(out.some(([t, v]) => t === 500_000 && v === 100)).toBe(true);
    expect(out.map(([t]) => t)).toEqual([...out.map(([t]) => t)].sort((a, b) => a - b));
  });
});

describe('downsampleSeries', () => {
  it('keeps a gap as a null point between runs', () => {
    const points: [number, number | null][] = [
      ...Array.from({ length: 300 }, (_, i): [number, number] => [i, i % 7]),
      [300, null],
      ...Array.from({ length: 300 }, (_, i): [number, number] => [301 + i, i % 5]),
    ];
    const out = downsampleSeries(points, 60);
    const nulls = out.filter(([, v]) => v === null);
    expect(nulls).toHaveLength(1);
    expect(out.length).toBeLessThanOrEqual(61);
    const gapIndex = out.findIndex(([, v]) => v === null);
    expect(out[gapIndex - 1]![0]).toBe(299);
    expect(out[gapIndex + 1]![0]).toBe(301);
  });
});
