// The spec: "Warm runs can invert which node is critical, since every build term collapses towards zero while the
// cache terms stay: in one perf-warm run pytorch-wheel was a cache hit and freed its node after 55 s, leaving the
// WiFi node's four small targets — 2.8 GB between them — as the critical path of a 26-minute run."
// Reproduced: a plan made with cold costs, run with warm ones, goes critical on the WiFi node; a warm plan does not.
import { describe, expect, it } from 'vitest';
import { chooseCosts, createPlan, renderPlan } from '../../../src/plan/index.js';
import { simulatePlan } from '../../../src/plan/simulate-plan.js';
import { type CostFigures } from '../../../src/plan/choose-costs.js';
import { type PlanNode } from '../../../src/plan/cost-model.js';

const nodes: PlanNode[] = [
  { name: 'strix', builder: 'strix', linkMbps: 900, speed: 1 },
  { name: 'kiln', builder: 'kiln', linkMbps: 4.3, speed: 1 },
];
const small = ['apex-wheel', 'bitsandbytes-wheel', 'deepspeed-wheel', 'torchvision-wheel'];
const graph = {
  targets: ['pytorch', 'pytorch-wheel', ...small],
  deps: Object.fromEntries([
    ['pytorch', []],
    ['pytorch-wheel', ['pytorch']],
    ...small.map((name) => [name, ['pytorch']]),
  ]) as Record<string, string[]>,
};
const figures = new Map<string, CostFigures>([
  ['pytorch', { buildSeconds: 3000, warmBuildSeconds: 120, cacheBytes: 12_400_000_000 }],
  ['pytorch-wheel', { buildSeconds: 4800, warmBuildSeconds: 55, cacheBytes: 200_000_000 }],
  ...small.map((name): [string, CostFigures] => [
    name,
    { buildSeconds: 900, warmBuildSeconds: 200, cacheBytes: 700_000_000 },
  ]),
]);

function plan(mode: 'cold' | 'warm') {
  const costSet = chooseCosts(figures, mode);
  return createPlan({
    graph,
    costs: costSet.costs,
    costSet,
    nodes,
    arch: 'gfx1201',
    createdAt: '2026-12-03T00:00:00Z',
  });
}

describe('warm runs invert which node is critical', () => {
  const cold = plan('cold');
  const waitFor = Object.fromEntries(
    Object.entries(cold.targets).map(([name, entry]) => [name, entry.waitFor]),
  );
  const warmRunOfColdPlan = simulatePlan({
    queues: cold.queues,
    waitFor,
    costs: chooseCosts(figures, 'warm').costs,
    nodes,
  });

  it('cold costs put the four small targets, 2.8 GB between them, on the WiFi node, off the critical path', () => {
    expect([...(cold.queues.kiln ?? [])].sort()).toEqual(small);
    expect(small.reduce((sum, name) => sum + (figures.get(name)?.cacheBytes ?? 0), 0)).toBe(2_800_000_000);
    expect(cold.criticalPath).toEqual(['pytorch', 'pytorch-wheel']);
  });

  it('run warm, the cache-hit wheel frees its node after 55 s and the WiFi node’s targets set a 26-minute makespan', () => {
    const wheel = warmRunOfColdPlan.targets['pytorch-wheel']!;
    expect(wheel.finishSeconds - wheel.startSeconds).toBeCloseTo(55 + 200_000_000 / 900e6, 6);
    expect(warmRunOfColdPlan.criticalPath.slice(1).sort()).toEqual(small);
    expect(
      warmRunOfColdPlan.criticalPath
        .slice(1)
        .every((name) => warmRunOfColdPlan.targets[name]!.node === 'kiln'),
    ).toBe(true);
    expect(Math.round(warmRunOfColdPlan.makespanSeconds / 60)).toBe(26);
  });

  it('a warm plan (plan --mode warm, rocm-perf warm) plans with the warm figures, says so, and avoids it', () => {
    const warm = plan('warm');
    expect(warm.costs).toEqual({ mode: 'warm', coldBuildFor: [], fullExportFor: [] });
    expect(renderPlan(warm)).toContain('costs: warm build seconds for 6 of 6 targets (`warm-build` lines)');
    expect(warm.makespanSeconds).toBeLessThan(warmRunOfColdPlan.makespanSeconds / 2);
    expect((warm.queues.kiln ?? []).length).toBeLessThan(small.length);
    expect(renderPlan(cold)).toContain('costs: cold build seconds (`build` lines)');
  });

  it('a warm plan falls back to the cold figure of a target without a warm one, and names it', () => {
    const partial = new Map(figures);
    partial.set('pytorch', { ...figures.get('pytorch')!, warmBuildSeconds: undefined });
    const costSet = chooseCosts(partial, 'warm');
    expect(costSet.coldBuildFor).toEqual(['pytorch']);
    expect(costSet.costs.get('pytorch')?.buildSeconds).toBe(3000);
  });
});
