import { describe, expect, it } from 'vitest';
import { createPlan, forecastMakespan, type CostDistribution } from '../../../src/plan/index.js';
import { selectBand } from '../../../src/plan/forecast-makespan.js';
import { createRandom } from '../../../src/shared/random.js';

// The forecast's draws are seeded: a plan's band must not move when the drawing is made faster. These tests
// recompute the draws here, one `next()` at a time with the Box–Muller formula as docs/forecast.md states it
// (ln value = ln median + s·Z, Z = √(−2 ln(1−u₁))·cos(2πu₂), s = σ·√(1 + π/(2·runs)), clamped to 20× either
// way), and hold the forecast to them bit for bit.

/** Type-7 quantile of sorted values, as R and numpy give it. */
function quantileOfSorted(sorted: readonly number[], q: number): number {
  const at = q * (sorted.length - 1);
  const low = Math.floor(at);
  const high = Math.min(sorted.length - 1, low + 1);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

function bandOfSorted(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p10: quantileOfSorted(sorted, 0.1),
    p50: quantileOfSorted(sorted, 0.5),
    p90: quantileOfSorted(sorted, 0.9),
  };
}

function drawOne(next: () => number, median: number, sigma: number, runs: number): number {
  const first = next();
  const second = next();
  if (median === 0) return 0;
  const scale = runs < 2 ? 0.25 : sigma * Math.sqrt(1 + Math.PI / (2 * runs));
  const z = Math.sqrt(-2 * Math.log(1 - first)) * Math.cos(2 * Math.PI * second);
  const limit = Math.log(20);
  return median * Math.exp(Math.max(-limit, Math.min(limit, scale * z)));
}

describe('Random.fill', () => {
  it('continues the stream next() gives, between and across calls', () => {
    const one = createRandom(42);
    const other = createRandom(42);
    const expected = Array.from({ length: 40 }, () => one.next());
    const got: number[] = [other.next()];
    const buffer = new Float64Array(17);
    other.fill(buffer);
    got.push(...buffer, other.next());
    other.fill(buffer.subarray(0, 5));
    got.push(...buffer.subarray(0, 5));
    expect(got).toEqual(expected.slice(0, got.length));
    expect(got).toHaveLength(24);
  });
});

describe('the forecast draws the stream in target order, six uniforms a target', () => {
  const node = { name: 'solo', builder: 'solo', linkMbps: 50, speed: 0.8 };
  // b waits for a, both on the one node: a draw's makespan is a's duration plus b's, exactly.
  const plan = createPlan({
    graph: { targets: ['a', 'b'], deps: { b: ['a'] } },
    costs: new Map([
      ['a', { buildSeconds: 100, cacheBytes: 4e8, setupSeconds: 3 }],
      ['b', { buildSeconds: 40, cacheBytes: 1e8 }],
    ]),
    nodes: [node],
    arch: 'gfx1201',
    createdAt: '2026-12-06T00:00:00Z',
  });
  const figures: Record<'a' | 'b', CostDistribution> = {
    a: {
      buildSeconds: 100,
      buildSigma: 0.3,
      buildRuns: 4,
      cacheBytes: 4e8,
      cacheSigma: 0.5,
      cacheRuns: 3,
      setupSeconds: 3,
      setupSigma: 0.2,
      setupRuns: 5,
    },
    // No setup: its median is 0, yet its two uniforms are still taken.
    b: { buildSeconds: 40, buildSigma: 0.1, buildRuns: 9, cacheBytes: 1e8, cacheSigma: 0.05, cacheRuns: 1 },
  };
  const duration = (next: () => number, f: CostDistribution) => {
    const build = drawOne(next, f.buildSeconds, f.buildSigma, f.buildRuns);
    const bytes = drawOne(next, f.cacheBytes, f.cacheSigma, f.cacheRuns);
    const setup = drawOne(next, f.setupSeconds ?? 0, f.setupSigma ?? 0, f.setupRuns ?? 1);
    return build / node.speed + bytes / (node.linkMbps * 1e6) + setup;
  };

  it.each([1, 7, 20261202])('seed %i: every quantile and band equals the draws made here', (seed) => {
    const draws = 600;
    const forecast = forecastMakespan({
      plan,
      distributions: new Map(Object.entries(figures)),
      draws,
      minDraws: draws,
      seed,
    });
    const random = createRandom(seed);
    const a: number[] = [];
    const b: number[] = [];
    for (let d = 0; d < draws; d++) {
      a.push(duration(random.next, figures.a));
      b.push(duration(random.next, figures.b));
    }
    const makespans = a.map((x, d) => x + b[d]!);
    const sorted = [...makespans].sort((x, y) => x - y);
    expect(forecast.draws).toBe(draws);
    expect(forecast.quantiles).toEqual(
      Array.from({ length: 101 }, (_, k) => quantileOfSorted(sorted, k / 100)),
    );
    expect(forecast.makespan).toEqual(bandOfSorted(makespans));
    expect(forecast.targets.a!.duration).toEqual(bandOfSorted(a));
    expect(forecast.targets.a!.finish).toEqual(bandOfSorted(a));
    expect(forecast.targets.b!.finish).toEqual(bandOfSorted(makespans));
  });
});

describe('selectBand', () => {
  it('gives the type-7 p10/p50/p90 of the sorted values, for every length and with ties', () => {
    const random = createRandom(5);
    const lengths = [1, 2, 3, 4, 5, 9, 10, 11, 12, 19, 20, 21, 99, 100, 101, 250, 999, 1000, 1001];
    for (const length of lengths)
      for (const ties of [false, true]) {
        const values = Array.from({ length }, () =>
          ties ? Math.floor(random.next() * 4) : 1000 + random.next() * 100,
        );
        expect(selectBand(Float64Array.from(values)), `${length} values, ties ${ties}`).toEqual(
          bandOfSorted(values),
        );
      }
    expect(selectBand(new Float64Array(0))).toEqual({ p10: NaN, p50: NaN, p90: NaN });
  });
});
