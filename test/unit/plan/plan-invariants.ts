import { expect } from 'vitest';
import { simulatePlan } from '../../../src/plan/simulate-plan.js';
import type { Plan } from '../../../src/artifacts/index.js';
import type { PlanInstance } from './random-instance.js';

/** Every target placed once; queues respect deps; the simulator agrees with the plan; the bound holds. */
export function expectValidPlan(plan: Plan, instance: PlanInstance): void {
  const queued = Object.values(plan.queues).flat();
  expect([...queued].sort()).toEqual([...instance.graph.targets].sort());
  for (const [node, queue] of Object.entries(plan.queues)) {
    queue.forEach((name, k) => {
      const target = plan.targets[name]!;
      expect(target.node).toBe(node);
      if (k > 0)
        expect(target.startSeconds).toBeGreaterThanOrEqual(plan.targets[queue[k - 1]!]!.finishSeconds);
      for (const dep of instance.graph.deps[name] ?? []) {
        expect(target.startSeconds).toBeGreaterThanOrEqual(plan.targets[dep]!.finishSeconds);
        if (plan.targets[dep]!.node === node) expect(queue.indexOf(dep)).toBeLessThan(k);
      }
    });
  }
  const waitFor = Object.fromEntries(
    Object.entries(plan.targets).map(([name, target]) => [name, target.waitFor]),
  );
  const sim = simulatePlan({ queues: plan.queues, waitFor, costs: instance.costs, nodes: instance.nodes });
  expect(sim.makespanSeconds).toBe(plan.makespanSeconds);
  for (const [name, target] of Object.entries(plan.targets)) {
    expect(sim.targets[name]).toEqual({
      node: target.node,
      startSeconds: target.startSeconds,
      finishSeconds: target.finishSeconds,
    });
  }
  expect(plan.lowerBoundSeconds).toBeLessThanOrEqual(plan.makespanSeconds * (1 + 1e-9));
  const last = plan.criticalPath.at(-1);
  if (last !== undefined) expect(plan.targets[last]!.finishSeconds).toBe(plan.makespanSeconds);
}
