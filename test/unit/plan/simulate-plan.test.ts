import { describe, expect, it } from 'vitest';
import { simulatePlan } from '../../../src/plan/simulate-plan.js';
import { type CostInput } from '../../../src/plan/problem.js';
import { type PlanNode } from '../../../src/plan/cost-model.js';

const nodes: PlanNode[] = [
  { name: 'fast', builder: 'fast', linkMbps: 1000, speed: 2 },
  { name: 'slow', builder: 'slow', linkMbps: 10, speed: 1 },
];
// On fast: build/2 + bytes/1e9; on slow: build + bytes/1e7.
const costs = new Map<string, CostInput>([
  ['base', { buildSeconds: 200, cacheBytes: 0 }],
  ['wheel', { buildSeconds: 100, cacheBytes: 100_000_000 }],
  ['tool', { buildSeconds: 30, cacheBytes: 0 }],
  ['late', { buildSeconds: 40, cacheBytes: 0 }],
]);
const waitFor = { base: [], wheel: ['base'], tool: [], late: [] };

describe('simulatePlan', () => {
  it('runs each queue in order, waiting for dependencies', () => {
    const sim = simulatePlan({
      queues: { fast: ['base', 'tool'], slow: ['wheel', 'late'] },
      waitFor,
      costs,
      nodes,
    });
    expect(sim.targets).toEqual({
      base: { node: 'fast', startSeconds: 0, finishSeconds: 100 },
      tool: { node: 'fast', startSeconds: 100, finishSeconds: 115 },
      wheel: { node: 'slow', startSeconds: 100, finishSeconds: 210 },
      late: { node: 'slow', startSeconds: 210, finishSeconds: 250 },
    });
    expect(sim.makespanSeconds).toBe(250);
    expect(sim.criticalPath).toEqual(['base', 'wheel', 'late']);
  });

  it('splits idle time into waiting on dependencies and placement loss', () => {
    const sim = simulatePlan({
      queues: { fast: ['base', 'tool'], slow: ['wheel', 'late'] },
      waitFor,
      costs,
      nodes,
    });
    const [fast, slow] = sim.nodes;
    // slow idles 0–100 behind wheel (waiting on base) while `late` sits ready in its own queue: placement loss.
    expect(slow).toEqual({
      name: 'slow',
      busySeconds: 150,
      idleSeconds: 100,
      dependencyWaitSeconds: 0,
      placementLossSeconds: 100,
    });
    // fast idles 115–250: `late` is ready until 210 (placement loss), then nothing is left to start.
    expect(fast).toEqual({
      name: 'fast',
      busySeconds: 115,
      idleSeconds: 135,
      dependencyWaitSeconds: 40,
      placementLossSeconds: 95,
    });
  });

  it('counts idle time as waiting on dependencies when nothing is ready', () => {
    const sim = simulatePlan({
      queues: { fast: ['base'], slow: ['wheel'] },
      waitFor: { base: [], wheel: ['base'] },
      costs,
      nodes,
    });
    expect(sim.nodes[1]).toEqual({
      name: 'slow',
      busySeconds: 110,
      idleSeconds: 100,
      dependencyWaitSeconds: 100,
      placementLossSeconds: 0,
    });
    expect(sim.nodes[0]).toMatchObject({
      idleSeconds: 110,
      dependencyWaitSeconds: 110,
      placementLossSeconds: 0,
    });
  });

  it('reports a deadlock between queue order and dependencies', () => {
    const queues = { fast: ['wheel', 'base'], slow: [] };
    expect(() => simulatePlan({ queues, waitFor: { base: [], wheel: ['base'] }, costs, nodes })).toThrow(
      /deadlock: base, wheel/,
    );
  });

  it('names targets queued twice, missing or unknown', () => {
    const queues = { fast: ['base', 'base'], nowhere: ['tool'], slow: ['wheel'] };
    const run = () => simulatePlan({ queues, waitFor, costs, nodes });
    expect(run).toThrow(/queue for unknown node `nowhere`/);
    expect(run).toThrow(/target `base` is queued twice/);
    expect(run).toThrow(/target `late` is in no queue/);
    expect(run).toThrow(/target `tool` is in no queue/);
  });

  it('perturbs durations reproducibly with seeded noise', () => {
    const queues = { fast: ['base', 'tool'], slow: ['wheel', 'late'] };
    const noisy = simulatePlan({ queues, waitFor, costs, nodes, durationNoise: { sigma: 0.3, seed: 42 } });
    const again = simulatePlan({ queues, waitFor, costs, nodes, durationNoise: { sigma: 0.3, seed: 42 } });
    const other = simulatePlan({ queues, waitFor, costs, nodes, durationNoise: { sigma: 0.3, seed: 43 } });
    expect(again).toEqual(noisy);
    expect(other.makespanSeconds).not.toBe(noisy.makespanSeconds);
    expect(noisy.makespanSeconds).not.toBe(250);
    expect(noisy.targets.wheel!.startSeconds).toBe(noisy.targets.base!.finishSeconds);
  });
});
