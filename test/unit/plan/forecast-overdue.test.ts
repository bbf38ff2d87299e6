import { describe, expect, it } from 'vitest';
import { forecastMakespan, type CostDistribution } from '../../../src/plan/index.js';
import { planWithForecast } from '../../../src/plan/plan-with-forecast.js';

// A live forecast's overdue shares (issue 36 item 12): for a running target, the share of draws in which every
// duration drawn for it (the first and up to 50 more) ended before now. Held to the lognormal model computed here:
// one duration is at most `elapsed` with probability Φ(ln(elapsed / median) / s), s = sigma·√(1 + π/(2·runs)), so all
// 51 are with that probability to the 51st power.

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 for erf, error under 1.5e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

const MEDIAN = 600;
const SIGMA = 0.1;
const RUNS = 6;
const DRAWS = 2000;

function forecastAt(elapsedSeconds: number) {
  const distributions = new Map<string, CostDistribution>([
    [
      'pytorch',
      {
        buildSeconds: MEDIAN,
        buildSigma: SIGMA,
        buildRuns: RUNS,
        cacheBytes: 0,
        cacheSigma: 0,
        cacheRuns: RUNS,
      },
    ],
  ]);
  const plan = planWithForecast({
    graph: { targets: ['pytorch'], deps: {} },
    costs: new Map([['pytorch', { buildSeconds: MEDIAN, cacheBytes: 0 }]]),
    nodes: [{ name: 'forge', builder: 'forge', linkMbps: 100, speed: 1 }],
    arch: 'gfx1201',
    createdAt: '2026-12-06T00:00:00Z',
    distributions,
    draws: 500,
  });
  return forecastMakespan({
    plan,
    distributions,
    draws: DRAWS,
    minDraws: DRAWS,
    seed: 7,
    progress: { nowSeconds: elapsedSeconds, targets: { pytorch: { node: 'forge', startSeconds: 0 } } },
  });
}

describe('forecastMakespan: overdue shares of a running target', () => {
  it('match the lognormal model across how far past its median the target has run', () => {
    const scale = SIGMA * Math.sqrt(1 + Math.PI / (2 * RUNS));
    for (const elapsed of [600, 690, 700, 720, 740, 780]) {
      const expected = normalCdf(Math.log(elapsed / MEDIAN) / scale) ** 51;
      const share = forecastAt(elapsed).overdueShares?.pytorch ?? 0;
      const tolerance = 4 * Math.sqrt((expected * (1 - expected)) / DRAWS) + 0.005;
      expect(Math.abs(share - expected), `elapsed ${elapsed}: ${share} vs ${expected}`).toBeLessThanOrEqual(
        tolerance,
      );
    }
  });

  it('are absent at planning time, and a target that has not run long is in none', () => {
    expect(forecastAt(60).overdueShares).toEqual({});
    const planned = planWithForecast({
      graph: { targets: ['a'], deps: {} },
      costs: new Map([['a', { buildSeconds: 10, cacheBytes: 0 }]]),
      nodes: [{ name: 'forge', builder: 'forge', linkMbps: 100, speed: 1 }],
      arch: 'gfx1201',
      createdAt: '2026-12-06T00:00:00Z',
      distributions: new Map([
        [
          'a',
          { buildSeconds: 10, buildSigma: 0.1, buildRuns: 6, cacheBytes: 0, cacheSigma: 0, cacheRuns: 6 },
        ],
      ]),
      draws: 500,
    });
    expect(planned.forecast).toBeDefined();
    expect(Object.keys(planned.forecast!)).not.toContain('overdueShares');
  });
});
