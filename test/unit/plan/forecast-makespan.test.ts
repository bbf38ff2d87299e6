import { describe, expect, it } from 'vitest';
import {
  createPlan,
  findForecastPercentile,
  forecastMakespan,
  type CostDistribution,
} from '../../../src/plan/index.js';
import { planWithForecast } from '../../../src/plan/plan-with-forecast.js';
import { type PlanNode } from '../../../src/plan/cost-model.js';

// The forecast against figures computed here from the lognormal's own formulas (not from the simulator).

const nodes: PlanNode[] = [
  { name: 'a', builder: 'a', linkMbps: 100, speed: 1 },
  { name: 'b', builder: 'b', linkMbps: 100, speed: 1 },
];

function planOf(deps: Record<string, string[]>, build: Record<string, number>, fleet = nodes) {
  const costs = new Map(Object.entries(build).map(([t, s]) => [t, { buildSeconds: s, cacheBytes: 0 }]));
  return createPlan({
    graph: { targets: Object.keys(build), deps },
    costs,
    nodes: fleet,
    arch: 'gfx1201',
    createdAt: '2026-12-06T00:00:00Z',
  });
}

function dist(buildSeconds: number, buildSigma: number, runs: number): CostDistribution {
  return { buildSeconds, buildSigma, buildRuns: runs, cacheBytes: 0, cacheSigma: 0, cacheRuns: runs };
}

// Acklam-free inverse normal at the points used: Φ⁻¹(0.9) and Φ⁻¹(√0.5).
const Z90 = 1.2815515655446004;
const Z_SQRT_HALF = 0.5448716;

describe('forecastMakespan', () => {
  it('collapses to the plan makespan when no figure varies', () => {
    const plan = planOf({ y: ['x'] }, { x: 10, y: 20, z: 5 });
    const distributions = new Map([
      ['x', dist(10, 0, 5)],
      ['y', dist(20, 0, 5)],
      ['z', dist(5, 0, 5)],
    ]);
    const forecast = forecastMakespan({ plan, distributions, draws: 50 });
    expect(forecast.makespan.p10).toBeCloseTo(plan.makespanSeconds, 9);
    expect(forecast.makespan.p90).toBeCloseTo(plan.makespanSeconds, 9);
    expect(forecast.banded).toBe(true);
    expect(forecast.targets.y!.finish.p50).toBeCloseTo(plan.targets.y!.finishSeconds, 9);
    expect(forecast.targets.y!.criticalShare).toBe(1);
  });

  it('one target: p10/p50/p90 are the lognormal quantiles median·exp(±1.2816σ)', () => {
    const plan = planOf({}, { x: 100 }, [nodes[0]!]);
    const sigma = 0.2;
    const forecast = forecastMakespan({
      plan,
      distributions: new Map([['x', dist(100, sigma, 10_000)]]),
      draws: 20_000,
    });
    expect(forecast.makespan.p50).toBeGreaterThan(100 * 0.98);
    expect(forecast.makespan.p50).toBeLessThan(100 * 1.02);
    expect(forecast.makespan.p90 / (100 * Math.exp(Z90 * sigma))).toBeCloseTo(1, 1);
    expect(forecast.makespan.p10 / (100 * Math.exp(-Z90 * sigma))).toBeCloseTo(1, 1);
  });

  it('two independent targets on two nodes: the median makespan is the max of two lognormals, median·exp(0.5449σ)', () => {
    const plan = planOf({}, { x: 100, y: 100 });
    expect(new Set(Object.values(plan.targets).map((t) => t.node)).size).toBe(2);
    const sigma = 0.3;
    const distributions = new Map([
      ['x', dist(100, sigma, 10_000)],
      ['y', dist(100, sigma, 10_000)],
    ]);
    const forecast = forecastMakespan({ plan, distributions, draws: 20_000 });
    expect(forecast.makespan.p50 / (100 * Math.exp(Z_SQRT_HALF * sigma))).toBeCloseTo(1, 1);
    expect(forecast.nodes.a!.criticalShare + forecast.nodes.b!.criticalShare).toBeCloseTo(1, 6);
    expect(forecast.nodes.a!.criticalShare).toBeGreaterThan(0.4);
  });

  it('a short history widens the band (the median’s own error) and a thin one is stated', () => {
    const plan = planOf({}, { x: 100 }, [nodes[0]!]);
    const wide = forecastMakespan({
      plan,
      distributions: new Map([['x', dist(100, 0.2, 3)]]),
      draws: 20_000,
    });
    const narrow = forecastMakespan({
      plan,
      distributions: new Map([['x', dist(100, 0.2, 100)]]),
      draws: 20_000,
    });
    expect(wide.makespan.p90).toBeGreaterThan(narrow.makespan.p90 * 1.05);
    const thin = forecastMakespan({ plan, distributions: new Map([['x', dist(100, 0.2, 2)]]), draws: 100 });
    expect(thin).toMatchObject({ banded: false, thinTargets: ['x'], historyRuns: 2 });
  });

  it('live: a finished target is fixed and a running one ends after now', () => {
    const plan = planOf({ y: ['x'] }, { x: 10, y: 20 });
    const distributions = new Map([
      ['x', dist(10, 0.1, 50)],
      ['y', dist(20, 0.1, 50)],
    ]);
    const xNode = plan.targets.x!.node;
    const forecast = forecastMakespan({
      plan,
      distributions,
      draws: 500,
      progress: {
        nowSeconds: 60,
        targets: {
          x: { node: xNode, startSeconds: 0, finishSeconds: 50 },
          y: { node: plan.targets.y!.node, startSeconds: 50 },
        },
      },
    });
    expect(forecast.targets.x!.finish.p90).toBe(50);
    // y has run 10 s of its ~20: it ends after now, and near 50 + 20.
    expect(forecast.targets.y!.finish.p10).toBeGreaterThan(60);
    expect(forecast.makespan.p50).toBeGreaterThan(66);
    expect(forecast.makespan.p50).toBeLessThan(74);
    expect(forecast.conditionedAtSeconds).toBe(60);
  });

  it('stays finite with a wild spread line and a target that costs nothing to build', () => {
    const plan = planOf({ y: ['x'] }, { x: 0, y: 10 });
    const distributions = new Map([
      ['x', { ...dist(0, 400, 4), cacheBytes: 1e6, cacheSigma: 400 }],
      ['y', dist(10, 400, 4)],
    ]);
    const forecast = forecastMakespan({ plan, distributions, draws: 20_000 });
    expect(Number.isFinite(forecast.quantiles[100]!)).toBe(true);
    expect(forecast.quantiles[100]!).toBeGreaterThan(10 * 19);
    // No draw goes past 20× its median: x's export (0.01 s) plus y (10 s).
    expect(forecast.quantiles[100]!).toBeLessThanOrEqual(20 * 10.01 + 1e-9);
  });

  it('never puts the band under the plan’s lower bound: a draw faster than the bound counts as the bound', () => {
    // Two targets in a row on one node: the bound is their sum at the medians, 600 + 300 s, and half the draws
    // come in under it.
    const distributions = new Map([
      ['x', dist(600, 0.1, 6)],
      ['y', dist(300, 0.1, 6)],
    ]);
    const plan = planWithForecast({
      graph: { targets: ['x', 'y'], deps: { y: ['x'] } },
      costs: new Map(
        [...distributions].map(([n, d]) => [n, { buildSeconds: d.buildSeconds, cacheBytes: 0 }]),
      ),
      nodes: [nodes[0]!],
      arch: 'gfx1201',
      createdAt: '2026-12-06T00:00:00Z',
      distributions,
    });
    expect(plan.lowerBoundSeconds).toBe(900);
    const unfloored = forecastMakespan({ plan, distributions, draws: 2000, minDraws: 2000 });
    expect(unfloored.makespan.p10).toBeLessThan(880);
    if (!plan.forecast?.banded) throw new Error('expected a band');
    expect(plan.forecast.quantiles[0]).toBe(900);
    expect(plan.forecast.makespan.p10).toBe(900);
    expect(plan.forecast.makespan.p90).toBeGreaterThan(950);
  });

  it('refuses a plan target without figures, naming it', () => {
    const plan = planOf({}, { x: 10, y: 5 });
    expect(() => forecastMakespan({ plan, distributions: new Map([['x', dist(10, 0, 3)]]) })).toThrow(
      /no cost figures for y/,
    );
  });
});

describe('findForecastPercentile', () => {
  const quantiles = Array.from({ length: 101 }, (_, k) => 100 + k);
  it.each([
    [90, 0],
    [100, 0],
    [150, 50],
    [150.5, 50.5],
    [200, 100],
    [260, 100],
  ])('%d s lands at percentile %d', (actual, percentile) => {
    expect(findForecastPercentile(quantiles, actual)).toBeCloseTo(percentile, 6);
  });
});
