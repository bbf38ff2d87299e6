// Seeded random planning instances for the benchmarks (bench:plan, bench:startup): builds 2–90 min and exports
// 0.2–12.4 GB, like the gfx1201 scenario; links 4–900 MB/s; speeds 0.6–1.3; ≤ 2 dependencies per target.
import { type CostInput } from '../src/plan/problem.js';
import { type PlanNode } from '../src/plan/cost-model.js';
import type { Random } from '../src/shared/random.js';

export interface Instance {
  graph: { targets: string[]; deps: Record<string, string[]> };
  costs: Map<string, CostInput>;
  nodes: PlanNode[];
}

export interface InstanceShape {
  targets: [number, number];
  nodes: [number, number];
}

function logUniform(random: Random, low: number, high: number): number {
  return Math.exp(Math.log(low) + random.next() * (Math.log(high) - Math.log(low)));
}

function between(random: Random, [low, high]: [number, number]): number {
  return low + random.int(high - low + 1);
}

export function createInstance(random: Random, shape: InstanceShape): Instance {
  const n = between(random, shape.targets);
  const m = between(random, shape.nodes);
  const targets = Array.from({ length: n }, (_, j) => `t${String(j).padStart(3, '0')}`);
  const deps: Record<string, string[]> = {};
  const costs = new Map<string, CostInput>();
  targets.forEach((name, j) => {
    const count = Math.min(j, random.int(3));
    const picked = new Set<string>();
    while (picked.size < count) picked.add(targets[random.int(j)]!);
    deps[name] = [...picked];
    costs.set(name, {
      buildSeconds: logUniform(random, 120, 5400),
      cacheBytes: Math.round(logUniform(random, 2e8, 1.24e10)),
    });
  });
  const nodes = Array.from({ length: m }, (_, i) => ({
    name: `n${i}`,
    builder: `n${i}`,
    linkMbps: logUniform(random, 4, 900),
    speed: 0.6 + random.next() * 0.7,
  }));
  return { graph: { targets, deps }, costs, nodes };
}
