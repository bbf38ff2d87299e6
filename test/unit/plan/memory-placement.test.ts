import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chooseGuidedTarget,
  createPlan,
  forecastMakespan,
  renderPlan,
  type CostDistribution,
} from '../../../src/plan/index.js';
import { simulateDispatch } from '../../../src/plan/simulate-dispatch.js';
import { type PlanNode } from '../../../src/plan/cost-model.js';
import { STRATEGY_NAMES } from '../../../src/artifacts/index.js';
import { ConfigError } from '../../../src/shared/errors.js';
import { instanceArbitrary } from './random-instance.js';

// Memory-aware placement (docs/planning.md, "Memory"): no plan, guided dispatch or forecast draw puts a target on a
// node whose memory its measured peak exceeds. Every expectation is written from the figures below, not from the
// planner's own output.

const GiB = 2 ** 30;
const createdAt = '2026-12-06T00:00:00.000Z';

// `anvil` is twice as fast but has 8 GiB; `kiln` has 64 GiB. `huge` needs 20 GiB, `small` needs 1 GiB.
const nodes: PlanNode[] = [
  { name: 'anvil', builder: 'anvil', linkMbps: 1000, speed: 2, memoryBytes: 8 * GiB },
  { name: 'kiln', builder: 'kiln', linkMbps: 1000, speed: 1, memoryBytes: 64 * GiB },
];
const costs = (memory: boolean) =>
  new Map([
    ['huge', { buildSeconds: 100, cacheBytes: 0, ...(memory ? { memoryBytes: 20 * GiB } : {}) }],
    ['small', { buildSeconds: 10, cacheBytes: 0, ...(memory ? { memoryBytes: 1 * GiB } : {}) }],
  ]);
const graph = { targets: ['huge', 'small'], deps: { small: ['huge'] } };

describe('memory-aware placement', () => {
  it('without memory figures the planner puts huge on the fast node anvil (the rule below changes something)', () => {
    const plan = createPlan({ graph, costs: costs(false), nodes, arch: 'gfx1201', createdAt });
    expect(plan.targets.huge!.node).toBe('anvil');
    expect(plan.memoryForbidden).toBeUndefined();
  });

  it.each(STRATEGY_NAMES)(
    '%s: huge (20 GiB) never lands on anvil (8 GiB); plan.json names the forbidden placement',
    (strategy) => {
      const plan = createPlan({ graph, costs: costs(true), nodes, strategy, arch: 'gfx1201', createdAt });
      expect(plan.targets.huge!.node).toBe('kiln');
      expect(plan.targets.huge!.memoryBytes).toBe(20 * GiB);
      expect(plan.nodes.find((node) => node.name === 'anvil')!.memoryBytes).toBe(8 * GiB);
      // huge alone on kiln: 100 s at speed 1; small (after it) on anvil: 10 / 2 = 5 s.
      expect(plan.makespanSeconds).toBeCloseTo(105, 9);
      expect(plan.memoryForbidden).toEqual([
        { target: 'huge', node: 'anvil', memoryBytes: 20 * GiB, nodeMemoryBytes: 8 * GiB },
      ]);
    },
  );

  it('plan prints which placements the rule forbade', () => {
    const text = renderPlan(createPlan({ graph, costs: costs(true), nodes, arch: 'gfx1201', createdAt }));
    expect(text).toContain('anvil — 1000 MB/s, speed 2, 8 GiB memory');
    expect(text).toContain(
      "memory rule   forbade 1 placement (a target's measured memory peak over the node's memory_gb):",
    );
    expect(text).toContain('huge (peak 20 GiB) not on anvil (8 GiB)');
  });

  it('a target that fits no node is an error naming it, its peak and every node', () => {
    const tooBig = new Map([['huge', { buildSeconds: 100, cacheBytes: 0, memoryBytes: 100 * GiB }]]);
    const make = () =>
      createPlan({ graph: { targets: ['huge'], deps: {} }, costs: tooBig, nodes, arch: 'x', createdAt });
    expect(make).toThrow(ConfigError);
    expect(make).toThrow(
      /target huge: its measured memory peak 100 GiB fits no node \(anvil 8 GiB, kiln 64 GiB\)/,
    );
  });

  it('guided dispatch does not hand huge to an idle node it does not fit, though it would take it without the rule', () => {
    const plan = createPlan({ graph, costs: costs(true), nodes, arch: 'gfx1201', createdAt });
    // The same plan with the memory figures taken out: anvil may take huge (it finishes sooner there).
    const bare = {
      ...plan,
      targets: Object.fromEntries(
        Object.entries(plan.targets).map(([name, t]) => [name, { ...t, memoryBytes: undefined }]),
      ),
    };
    const ask = (p: typeof plan) =>
      chooseGuidedTarget({ idleNode: 'anvil', readyTargets: ['huge'], plan: p, nowSeconds: 0 });
    expect(ask(bare)).toEqual({ target: 'huge', reason: 'fits' });
    expect(ask(plan)).toEqual({ target: null, reason: 'wait' });
  });

  it('greedy and guided simulations and the guided forecast keep huge on kiln', () => {
    const plan = createPlan({ graph, costs: costs(true), nodes, arch: 'gfx1201', createdAt });
    for (const policy of ['guided', 'greedy'] as const)
      expect(simulateDispatch({ policy, plan }).targets.huge!.node).toBe('kiln');
    const dist = (buildSeconds: number): CostDistribution => ({
      buildSeconds,
      buildSigma: 0,
      buildRuns: 5,
      cacheBytes: 0,
      cacheSigma: 0,
      cacheRuns: 5,
    });
    const forecast = forecastMakespan({
      plan,
      distributions: new Map([
        ['huge', dist(100)],
        ['small', dist(10)],
      ]),
      policy: 'guided',
      draws: 20,
    });
    // huge on kiln (100 s) then small on anvil (5 s); on anvil huge would end at 50 s and the makespan at 55 s.
    expect(forecast.makespan.p50).toBeCloseTo(105, 9);
  });

  it('property: on random fleets and graphs with random memory, no strategy places a target where it does not fit', () => {
    fc.assert(
      fc.property(instanceArbitrary, fc.nat(), (instance, salt) => {
        const nodes = instance.nodes.map((node, i) => ({
          ...node,
          memoryBytes: (1 + ((i + salt) % 4)) * GiB,
        }));
        const most = Math.max(...nodes.map((node) => node.memoryBytes));
        const costs = new Map(
          [...instance.costs].map(([name, cost], j) => [
            name,
            { ...cost, memoryBytes: Math.min(most, (0.5 + ((j * 7 + salt) % 4)) * GiB) },
          ]),
        );
        for (const strategy of STRATEGY_NAMES) {
          const plan = createPlan({ ...instance, nodes, costs, strategy, arch: 'x', createdAt });
          for (const [name, target] of Object.entries(plan.targets)) {
            const node = nodes.find((n) => n.name === target.node)!;
            expect(costs.get(name)!.memoryBytes).toBeLessThanOrEqual(node.memoryBytes);
          }
        }
      }),
      { numRuns: 60, seed: 37 },
    );
  });
});
