import { describe, expect, it } from 'vitest';
import type { PlanForecast, RunFile, TargetSummary } from '../../../src/artifacts/index.js';
import { type CostDistribution } from '../../../src/plan/index.js';
import { planWithForecast } from '../../../src/plan/plan-with-forecast.js';
import { type PlanNode } from '../../../src/plan/cost-model.js';
import {
  buildForecastSummary,
  describeForecastMiss,
  toForecastProgress,
} from '../../../src/report/build-forecast-summary.js';

// The plan's forecast against a run: percentile, the flag far outside the band and its culprits, the live band.

const nodes: PlanNode[] = [
  { name: 'a', builder: 'a', linkMbps: 100, speed: 1 },
  { name: 'b', builder: 'b', linkMbps: 100, speed: 1 },
];
const dist = (seconds: number): CostDistribution => ({
  buildSeconds: seconds,
  buildSigma: 0.1,
  buildRuns: 8,
  cacheBytes: 0,
  cacheSigma: 0,
  cacheRuns: 8,
});
const distributions = new Map([
  ['x', dist(100)],
  ['y', dist(50)],
  ['z', dist(60)],
]);
const plan = planWithForecast({
  graph: { targets: ['x', 'y', 'z'], deps: { y: ['x'] } },
  costs: new Map([...distributions].map(([n, d]) => [n, { buildSeconds: d.buildSeconds, cacheBytes: 0 }])),
  nodes,
  arch: 'gfx1201',
  createdAt: '2026-12-06T00:00:00Z',
  distributions,
  draws: 4000,
});
if (!plan.forecast?.banded) throw new Error('the fixture plan must have a band');
const banded = plan.forecast;
const input = {
  forecast: {
    forecast: banded,
    dispatchPlan: { queues: plan.queues, targets: plan.targets, nodes: plan.nodes },
  },
};
const T0 = 1_800_000_000_000;

function runOf(status: RunFile['status'], targets: RunFile['targets']): RunFile {
  return { status, measuredStartedAtMs: T0, dispatch: 'fixed', targets } as unknown as RunFile;
}

function summaryOf(target: string, seconds: number, onCriticalPath: boolean): TargetSummary {
  return { target, node: plan.targets[target]!.node, totalSeconds: seconds, onCriticalPath } as TargetSummary;
}

describe('buildForecastSummary', () => {
  it('has no forecast for a plan made without one', () => {
    expect(
      buildForecastSummary({ plan: {}, run: undefined, targets: [], makespanSeconds: 10, generatedAtMs: 0 }),
    ).toBeNull();
  });

  it('puts a completed run at the percentile of the planned draws its makespan reached', () => {
    const p50 = banded.makespan.p50;
    const summary = buildForecastSummary({
      plan: input,
      run: runOf('completed', {}),
      targets: [],
      makespanSeconds: p50,
      generatedAtMs: 0,
    })!;
    expect(summary.percentile).toBeGreaterThan(48);
    expect(summary.percentile).toBeLessThan(52);
    expect(summary.outside).toBeNull();
    expect(summary.planned!.p90).toBeGreaterThan(summary.planned!.p10);
  });

  it('flags a run past its p99 and names the critical target that put it there', () => {
    const slow = banded.quantiles[100]! * 1.3;
    const targets = [summaryOf('x', 100 * 1.8, true), summaryOf('y', 50, true), summaryOf('z', 60, false)];
    const summary = buildForecastSummary({
      plan: input,
      run: runOf('completed', {}),
      targets,
      makespanSeconds: slow,
      generatedAtMs: 0,
    })!;
    expect(summary).toMatchObject({ percentile: 100, outside: 'above' });
    expect(summary.culprits.map((c) => c.target)).toEqual(['x']);
    expect(describeForecastMiss(summary)).toMatch(/past the p99 .*x 180 s against .*\(critical path\)/);
  });

  it('flags nothing when the forecast is unbanded: a run far under its draws has no band to be outside of', () => {
    // The box run: three warm runs with fewer than 3 runs of history per target, each far below its draws.
    // A plan made before issue 36's no-draws rule kept the band figures of an unbanded forecast: read, never shown.
    const unbanded = {
      forecast: {
        ...input.forecast,
        forecast: { ...input.forecast.forecast, banded: false } as PlanForecast,
      },
    };
    const fast = input.forecast.forecast.quantiles[0]! * 0.5;
    const targets = [summaryOf('x', 10, true), summaryOf('y', 5, true), summaryOf('z', 6, false)];
    const summary = buildForecastSummary({
      plan: unbanded,
      run: runOf('completed', {}),
      targets,
      makespanSeconds: fast,
      generatedAtMs: 0,
    })!;
    expect(summary).toMatchObject({ banded: false, percentile: null, outside: null, culprits: [] });
    expect(describeForecastMiss(summary)).toBeUndefined();
    // The same run against the banded forecast is flagged, so it is the band that decides.
    const banded = buildForecastSummary({
      plan: input,
      run: runOf('completed', {}),
      targets,
      makespanSeconds: fast,
      generatedAtMs: 0,
    })!;
    expect(banded).toMatchObject({ banded: true, outside: 'below' });
    expect(banded.culprits.length).toBeGreaterThan(0);
  });

  it('live: conditions the band on what finished and what runs', () => {
    const xNode = plan.targets.x!.node;
    const run = runOf('running', {
      x: { status: 'ok', node: xNode, startedAtMs: T0, finishedAtMs: T0 + 200_000 },
      y: { status: 'running', node: plan.targets.y!.node, startedAtMs: T0 + 200_000 },
      z: { status: 'ok', node: plan.targets.z!.node, startedAtMs: T0, finishedAtMs: T0 + 60_000 },
    });
    const summary = buildForecastSummary({
      plan: input,
      run,
      targets: [],
      makespanSeconds: null,
      generatedAtMs: T0 + 210_000,
    })!;
    // x took 200 s instead of 100: y (≈50 s) ends near 250 s, far past the planned band of ≈150 s.
    expect(summary.live!.atSeconds).toBe(210);
    expect(summary.live!.p50).toBeGreaterThan(240);
    expect(summary.live!.p50).toBeLessThan(262);
    expect(summary.planned!.p90).toBeLessThan(200);
    expect(summary.percentile).toBeNull();
  });

  it('reads run.json progress as seconds from the measured start', () => {
    const progress = toForecastProgress(
      runOf('running', { x: { status: 'running', node: 'a', startedAtMs: T0 + 5000 } }),
      T0 + 7000,
    );
    expect(progress).toEqual({
      nowSeconds: 7,
      targets: { x: { node: 'a', startSeconds: 5, finishSeconds: undefined } },
    });
  });
});
