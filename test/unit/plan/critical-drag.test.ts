import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCriticalDrag, createPlan } from '../../../src/plan/index.js';
import { simulatePlan } from '../../../src/plan/simulate-plan.js';
import { type RealisedSchedule } from '../../../src/plan/critical-drag.js';
import { instanceArbitrary } from './random-instance.js';

// base (A) → wheel (B) → late (B, queue edge); tool runs on A beside them.
function createSchedule(
  overrides: Partial<Record<string, { startSeconds: number; finishSeconds: number }>> = {},
): RealisedSchedule {
  const targets = {
    base: { node: 'A', startSeconds: 0, finishSeconds: 100, deps: [] },
    tool: { node: 'A', startSeconds: 100, finishSeconds: 115, deps: ['base'] },
    wheel: { node: 'B', startSeconds: 100, finishSeconds: 210, deps: ['base'] },
    late: { node: 'B', startSeconds: 210, finishSeconds: 250, deps: [] },
  };
  for (const [name, times] of Object.entries(overrides))
    Object.assign(targets[name as keyof typeof targets], times);
  return { targets };
}

describe('buildCriticalDrag', () => {
  it('follows dependency and queue edges across nodes, with each target’s drag', () => {
    const result = buildCriticalDrag({ schedule: createSchedule() });
    expect(result.makespanSeconds).toBe(250);
    expect(
      result.path.map(({ target, node, via, dragSeconds }) => ({ target, node, via, dragSeconds })),
    ).toEqual([
      { target: 'base', node: 'A', via: 'start', dragSeconds: 100 },
      { target: 'wheel', node: 'B', via: 'dependency', dragSeconds: 110 },
      { target: 'late', node: 'B', via: 'queue', dragSeconds: 40 },
    ]);
  });

  it('limits drag to where a parallel path takes over', () => {
    // tool now ends at 230: shortening late or wheel saves at most 20 s before tool's chain sets the makespan.
    const result = buildCriticalDrag({
      schedule: createSchedule({ tool: { startSeconds: 100, finishSeconds: 230 } }),
    });
    expect(result.path.map((entry) => [entry.target, entry.dragSeconds])).toEqual([
      ['base', 100],
      ['wheel', 20],
      ['late', 20],
    ]);
  });

  it('keeps launch delays (harness overhead) fixed when replaying', () => {
    const schedule = createSchedule({
      wheel: { startSeconds: 105, finishSeconds: 215 },
      late: { startSeconds: 215, finishSeconds: 255 },
      tool: { startSeconds: 100, finishSeconds: 230 },
    });
    const result = buildCriticalDrag({ schedule });
    const wheel = result.path.find((entry) => entry.target === 'wheel');
    expect(wheel).toMatchObject({ launchDelaySeconds: 5, durationSeconds: 110, dragSeconds: 25 });
    expect(result.makespanSeconds).toBe(255);
  });

  it('splits idle time into dependency wait and placement loss, and compares with the plan', () => {
    const planned = {
      base: { node: 'A', startSeconds: 0, finishSeconds: 90 },
      wheel: { node: 'A', startSeconds: 90, finishSeconds: 200 },
      gone: { node: 'B', startSeconds: 0, finishSeconds: 10 },
    };
    const result = buildCriticalDrag({ schedule: createSchedule(), planned, nodeNames: ['A', 'B', 'C'] });
    expect(result.nodes).toEqual([
      // A idles 115–250; `late` sits ready until 210: 95 s placement loss, 40 s with nothing ready.
      { name: 'A', busySeconds: 115, idleSeconds: 135, dependencyWaitSeconds: 40, placementLossSeconds: 95 },
      { name: 'B', busySeconds: 150, idleSeconds: 100, dependencyWaitSeconds: 0, placementLossSeconds: 100 },
      { name: 'C', busySeconds: 0, idleSeconds: 250, dependencyWaitSeconds: 40, placementLossSeconds: 210 },
    ]);
    expect(result.targets.find((row) => row.target === 'wheel')).toEqual({
      target: 'wheel',
      node: 'B',
      plannedNode: 'A',
      startSeconds: 100,
      finishSeconds: 210,
      plannedStartSeconds: 90,
      plannedFinishSeconds: 200,
      startDeltaSeconds: 10,
      durationDeltaSeconds: 0,
    });
    expect(result.targets.find((row) => row.target === 'gone')).toMatchObject({
      node: null,
      plannedNode: 'B',
      startDeltaSeconds: null,
    });
  });

  it('names inconsistent schedules', () => {
    expect(() =>
      buildCriticalDrag({
        schedule: { ...createSchedule(), queues: { A: ['base', 'tool'], B: ['late', 'wheel', 'base'] } },
      }),
    ).toThrow(/`base` ran on A but is queued on B; `base` is queued twice/);
    const cyclic: RealisedSchedule = {
      targets: {
        a: { node: 'A', startSeconds: 0, finishSeconds: 1, deps: ['b'] },
        b: { node: 'A', startSeconds: 1, finishSeconds: 2, deps: [] },
      },
    };
    expect(() => buildCriticalDrag({ schedule: cyclic })).toThrow(/cycle among a, b/);
    expect(buildCriticalDrag({ schedule: { targets: {} } })).toEqual({
      makespanSeconds: 0,
      path: [],
      nodes: [],
      targets: [],
    });
  });

  it('agrees with simulatePlan on random plans: the idle split, and drag = makespan saved by a zero-cost target', () => {
    fc.assert(
      fc.property(instanceArbitrary, (instance) => {
        const plan = createPlan({
          ...instance,
          arch: 'test',
          createdAt: '2026-01-01T00:00:00Z',
          maxEvaluations: 300,
        });
        const schedule: RealisedSchedule = {
          targets: Object.fromEntries(
            Object.entries(plan.targets).map(([name, t]) => [
              name,
              { node: t.node, startSeconds: t.startSeconds, finishSeconds: t.finishSeconds, deps: t.waitFor },
            ]),
          ),
          queues: plan.queues,
        };
        const result = buildCriticalDrag({ schedule, nodeNames: instance.nodes.map((node) => node.name) });
        const waitFor = Object.fromEntries(
          Object.entries(plan.targets).map(([name, t]) => [name, t.waitFor]),
        );
        for (const node of plan.nodes) {
          const split = result.nodes.find((entry) => entry.name === node.name)!;
          expect(split.placementLossSeconds).toBeCloseTo(node.placementLossSeconds, 6);
          expect(split.dependencyWaitSeconds).toBeCloseTo(node.dependencyWaitSeconds, 6);
        }
        expect(result.path.at(-1)?.finishSeconds ?? 0).toBe(plan.makespanSeconds);
        for (const entry of result.path) {
          const costs = new Map(instance.costs);
          costs.set(entry.target, { buildSeconds: 0, cacheBytes: 0 });
          const faster = simulatePlan({ queues: plan.queues, waitFor, costs, nodes: instance.nodes });
          expect(entry.dragSeconds).toBeCloseTo(plan.makespanSeconds - faster.makespanSeconds, 6);
          expect(entry.dragSeconds).toBeLessThanOrEqual(entry.durationSeconds + 1e-9);
        }
      }),
      { numRuns: 40, seed: 8 },
    );
  });
});
