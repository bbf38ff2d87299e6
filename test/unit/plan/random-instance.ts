import fc from 'fast-check';
import { type CostInput } from '../../../src/plan/problem.js';
import { type PlanNode } from '../../../src/plan/cost-model.js';

// Random planning instances for property tests: a DAG (each target depends on up to two earlier ones), costs in
// the scenario's range, and a fleet of 1–6 nodes with links 4–900 MB/s and speeds 0.6–1.3.

export interface PlanInstance {
  graph: { targets: string[]; deps: Record<string, string[]> };
  costs: Map<string, CostInput>;
  nodes: PlanNode[];
}

const targetArbitrary = fc.record({
  buildSeconds: fc.integer({ min: 0, max: 5400 }),
  cacheBytes: fc.integer({ min: 0, max: 12_400_000_000 }),
  deps: fc.uniqueArray(fc.nat(), { maxLength: 2 }),
});

const nodeArbitrary = fc.record({
  linkMbps: fc.double({ min: 4, max: 900, noNaN: true }),
  speed: fc.double({ min: 0.6, max: 1.3, noNaN: true }),
});

export const instanceArbitrary: fc.Arbitrary<PlanInstance> = fc
  .record({
    targets: fc.array(targetArbitrary, { minLength: 1, maxLength: 24 }),
    nodes: fc.array(nodeArbitrary, { minLength: 1, maxLength: 6 }),
  })
  .map(({ targets, nodes }) => {
    const names = targets.map((_, j) => `t${String(j).padStart(2, '0')}`);
    const deps: Record<string, string[]> = {};
    const costs = new Map<string, CostInput>();
    targets.forEach((target, j) => {
      deps[names[j]!] = j === 0 ? [] : [...new Set(target.deps.map((d) => names[d % j]!))];
      costs.set(names[j]!, { buildSeconds: target.buildSeconds, cacheBytes: target.cacheBytes });
    });
    const fleet = nodes.map((node, i) => ({ name: `n${i}`, builder: `b${i}`, ...node }));
    return { graph: { targets: names, deps }, costs, nodes: fleet };
  });
