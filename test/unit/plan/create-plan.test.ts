import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPlan } from '../../../src/plan/index.js';
import { STRATEGY_NAMES } from '../../../src/artifacts/index.js';
import { expectValidPlan } from './plan-invariants.js';
import { instanceArbitrary, type PlanInstance } from './random-instance.js';

const createdAt = '2026-01-01T00:00:00.000Z';

const diamond: PlanInstance = {
  graph: {
    targets: ['base', 'left', 'right', 'top'],
    deps: { base: [], left: ['base'], right: ['base'], top: ['left', 'right'] },
  },
  costs: new Map([
    ['base', { buildSeconds: 100, cacheBytes: 0 }],
    ['left', { buildSeconds: 50, cacheBytes: 0 }],
    ['right', { buildSeconds: 60, cacheBytes: 0 }],
    ['top', { buildSeconds: 10, cacheBytes: 0 }],
  ]),
  nodes: [
    { name: 'a', builder: 'a', linkMbps: 100, speed: 1 },
    { name: 'b', builder: 'b', linkMbps: 100, speed: 1 },
  ],
};

describe('createPlan: packer invariants', () => {
  it.each(STRATEGY_NAMES)('%s: a diamond is placed once per target, in dependency order', (strategy) => {
    const plan = createPlan({ ...diamond, strategy, arch: 'gfx1201', createdAt });
    expectValidPlan(plan, diamond);
  });

  it('runs the two branches of a diamond in parallel and reaches the bound', () => {
    const plan = createPlan({ ...diamond, arch: 'gfx1201', createdAt });
    expect(plan.makespanSeconds).toBe(170);
    expect(plan.lowerBoundSeconds).toBe(170);
    expect(plan.criticalPath).toEqual(['base', 'right', 'top']);
    expect(plan.targets.left!.node).not.toBe(plan.targets.right!.node);
  });

  it('picks the node where a target finishes soonest, not the least loaded one', () => {
    const instance: PlanInstance = {
      graph: { targets: ['big-export', 'small'], deps: {} },
      costs: new Map([
        ['big-export', { buildSeconds: 100, cacheBytes: 6_400_000_000 }],
        ['small', { buildSeconds: 10, cacheBytes: 0 }],
      ]),
      nodes: [
        { name: 'wifi', builder: 'wifi', linkMbps: 4, speed: 2 },
        { name: 'wired', builder: 'wired', linkMbps: 800, speed: 1 },
      ],
    };
    for (const strategy of ['heft', 'heft-ls'] as const) {
      const plan = createPlan({ ...instance, strategy, arch: 'x', createdAt });
      expect(plan.targets['big-export']!.node).toBe('wired');
      expect(plan.targets['big-export']!.exportSeconds).toBe(8);
    }
    const blind = createPlan({ ...instance, strategy: 'build-only', arch: 'x', createdAt });
    expect(blind.targets['big-export']!.node).toBe('wifi');
    expect(blind.makespanSeconds).toBe(50 + 1600);
  });

  it('makes identical plans for identical inputs', () => {
    const first = createPlan({ ...diamond, arch: 'x', createdAt });
    const second = createPlan({ ...diamond, arch: 'x', createdAt });
    expect(second).toEqual(first);
  });

  it('puts stage barriers in waitFor for `stages`', () => {
    const instance: PlanInstance = {
      graph: { targets: ['a', 'b', 'c'], deps: { a: [], b: [], c: ['a'] } },
      costs: new Map(
        ['a', 'b', 'c'].map((name) => [name, { buildSeconds: name === 'b' ? 500 : 10, cacheBytes: 0 }]),
      ),
      nodes: diamond.nodes,
    };
    const plan = createPlan({ ...instance, strategy: 'stages', arch: 'x', createdAt });
    expect(plan.targets.c!.deps).toEqual(['a']);
    expect(plan.targets.c!.waitFor).toEqual(['a', 'b']);
    expect(plan.targets.c!.startSeconds).toBe(500);
    expectValidPlan(plan, instance);
  });

  it('rejects an unknown strategy with the valid names', () => {
    expect(() => createPlan({ ...diamond, strategy: 'fastest', arch: 'x', createdAt })).toThrow(
      /unknown strategy `fastest`/,
    );
    try {
      createPlan({ ...diamond, strategy: 'fastest', arch: 'x', createdAt });
    } catch (error) {
      expect((error as { hint: string }).hint).toBe(`use one of: ${STRATEGY_NAMES.join(', ')}`);
      expect((error as { exitCode: number }).exitCode).toBe(2);
    }
  });
});

describe('createPlan: packer properties on random DAGs', () => {
  it('every strategy yields a valid plan that the simulator reproduces', () => {
    fc.assert(
      fc.property(instanceArbitrary, fc.constantFrom(...STRATEGY_NAMES), (instance, strategy) => {
        const plan = createPlan({ ...instance, strategy, arch: 'x', createdAt, maxEvaluations: 400 });
        expectValidPlan(plan, instance);
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('the default never does worse than plain HEFT', () => {
    fc.assert(
      fc.property(instanceArbitrary, (instance) => {
        const heft = createPlan({ ...instance, strategy: 'heft', arch: 'x', createdAt });
        const best = createPlan({ ...instance, arch: 'x', createdAt, maxEvaluations: 400 });
        expect(best.makespanSeconds).toBeLessThanOrEqual(heft.makespanSeconds);
      }),
      { numRuns: 100, seed: 11 },
    );
  });

  it('with one node, the makespan is the sum of the costs and equals the bound', () => {
    fc.assert(
      fc.property(instanceArbitrary, (instance) => {
        const node = instance.nodes[0]!;
        const plan = createPlan({ ...instance, nodes: [node], arch: 'x', createdAt });
        const total = Object.values(plan.targets).reduce(
          (sum, t) => sum + t.buildSeconds + t.exportSeconds,
          0,
        );
        expect(plan.makespanSeconds).toBeCloseTo(total, 6);
        expect(plan.gap).toBeLessThan(1e-9);
      }),
      { numRuns: 60, seed: 3 },
    );
  });
});
