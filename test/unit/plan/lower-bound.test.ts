import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createProblem, findLowerBound, type CostInput, type PlanNode } from '../../../src/plan/index.js';
import { findWindowBound, toHeadsTails } from '../../../src/plan/lower-bound.js';
import { createRandom } from '../../../src/shared/random.js';
import { createInstance } from '../../../bench/create-instance.js';
import { instanceArbitrary, type PlanInstance } from './random-instance.js';

function node(name: string, speed = 1): PlanNode {
  return { name, builder: name, linkMbps: 1000, speed };
}

function problemOf(builds: Record<string, number>, deps: Record<string, string[]>, nodes: PlanNode[]) {
  const costs = new Map<string, CostInput>(
    Object.entries(builds).map(([name, buildSeconds]) => [name, { buildSeconds, cacheBytes: 0 }]),
  );
  return createProblem({ graph: { targets: Object.keys(builds), deps }, costs, nodes });
}

describe('findLowerBound', () => {
  it('is the total work over the nodes for independent targets on identical nodes', () => {
    const bound = findLowerBound(
      problemOf({ a: 30, b: 30, c: 30, d: 30 }, {}, [node('x'), node('y'), node('z')]),
    );
    expect(bound.loadSeconds).toBeCloseTo(40, 6);
    expect(bound.lowerBoundSeconds).toBeCloseTo(40, 6);
  });

  it('is the total work over the total speed on uniform nodes', () => {
    const bound = findLowerBound(problemOf({ a: 60, b: 60, c: 60 }, {}, [node('x', 2), node('y', 1)]));
    expect(bound.loadSeconds).toBeCloseTo(60, 6);
  });

  it('is at least the largest target at its cheapest node', () => {
    const bound = findLowerBound(problemOf({ big: 100, a: 1, b: 1 }, {}, [node('x'), node('y')]));
    expect(bound.targetSeconds).toBe(100);
    expect(bound.lowerBoundSeconds).toBe(100);
  });

  it('follows the longest chain at each target cheapest node', () => {
    const bound = findLowerBound(
      problemOf({ a: 10, b: 20, c: 5, d: 1 }, { b: ['a'], c: ['b'], d: ['a'] }, [node('x', 1), node('y', 2)]),
    );
    expect(bound.pathSeconds).toBe(17.5);
    expect(bound.path).toEqual([0, 1, 2]);
  });

  it('combines heads and tails with the load of what lies between', () => {
    // root (10) fans out to four 10 s targets on two nodes: they cannot start before 10, so T ≥ 10 + 40/2 = 30.
    const deps = { a: ['root'], b: ['root'], c: ['root'], d: ['root'] };
    const bound = findLowerBound(
      problemOf({ root: 10, a: 10, b: 10, c: 10, d: 10 }, deps, [node('x'), node('y')]),
    );
    expect(bound.pathSeconds).toBe(20);
    expect(bound.loadSeconds).toBeCloseTo(25, 6);
    expect(bound.windowSeconds).toBeCloseTo(30, 6);
    expect(bound.lowerBoundSeconds).toBeCloseTo(30, 6);
  });
});

describe('the window bound, pruned by each window’s harmonic ceiling', () => {
  const windowsOf = (instance: PlanInstance) => {
    const problem = createProblem(instance);
    const headsTails = toHeadsTails(problem);
    return {
      pruned: findWindowBound(problem, headsTails),
      every: findWindowBound(problem, headsTails, false),
    };
  };

  it('equals the bound from every window, bit for bit, on random instances', () => {
    fc.assert(
      fc.property(instanceArbitrary, (instance) => {
        const { pruned, every } = windowsOf(instance);
        expect(pruned).toBe(every);
      }),
      { numRuns: 300, seed: 39 },
    );
  });

  it('equals it on large seeded instances too (the case the pruning is for)', () => {
    for (const seed of [1, 2, 3]) {
      const instance = createInstance(createRandom(seed), { targets: [300, 300], nodes: [24, 24] });
      const { pruned, every } = windowsOf(instance);
      expect(pruned).toBe(every);
      expect(pruned).toBeGreaterThan(0);
    }
  });
});
