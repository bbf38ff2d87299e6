import { describe, expect, it } from 'vitest';
import { buildCriticalDrag, toScheduleFromRun } from '../../../src/plan/index.js';
import { createRunFile, createTrace, RUN_T0_MS } from './recorded-run.js';

const nodes = [
  { name: 'anvil', builder: 'anvil', linkMbps: 110, speed: 1 },
  { name: 'kiln', builder: 'kiln', linkMbps: 4.3, speed: 1 },
  { name: 'idle', builder: 'idle', linkMbps: 100, speed: 1 },
];

describe('toScheduleFromRun', () => {
  const run = createRunFile({
    nodes,
    targets: {
      pytorch: { node: 'anvil', startSeconds: 2, finishSeconds: 600 },
      wheel: { node: 'kiln', startSeconds: 603, finishSeconds: 900, status: 'failed' },
      extra: { node: 'anvil', startSeconds: 600, finishSeconds: 650 },
      later: { status: 'skipped', node: 'kiln', reason: 'dependency wheel failed' },
    },
  });
  const plan = {
    targets: {
      pytorch: { waitFor: [] },
      wheel: { waitFor: ['pytorch'] },
      extra: { waitFor: [] },
      later: { waitFor: ['wheel'] },
    },
  };

  it('turns run.json times into seconds from the measured start, with the plan’s waits and the node order', () => {
    const schedule = toScheduleFromRun({
      run,
      plan: plan as never,
      traces: new Map([['pytorch', createTrace('pytorch', 500, [1e9])]]),
    });
    expect(schedule.originMs).toBe(RUN_T0_MS);
    expect(schedule.targets.pytorch).toEqual({
      node: 'anvil',
      status: 'ok',
      startSeconds: 2,
      finishSeconds: 600,
      deps: [],
      traceBuildSeconds: 500,
      traceTotalSeconds: 501,
    });
    expect(schedule.targets.wheel).toMatchObject({ status: 'failed', startSeconds: 603, deps: ['pytorch'] });
    expect(schedule.queues).toEqual({ anvil: ['pytorch', 'extra'], kiln: ['wheel'] });
    expect(schedule.nodeNames).toEqual(['anvil', 'idle', 'kiln']);
    expect(schedule.notes).toEqual([
      'later: skipped in run.json, so it has no times and is left out of the schedule',
    ]);
  });

  it('feeds buildCriticalDrag: the path crosses from anvil to kiln with the launch delay', () => {
    const schedule = toScheduleFromRun({ run, plan: plan as never });
    const result = buildCriticalDrag({ schedule, nodeNames: schedule.nodeNames });
    expect(
      result.path.map((entry) => [entry.target, entry.via, entry.launchDelaySeconds, entry.dragSeconds]),
    ).toEqual([
      ['pytorch', 'start', 2, 598],
      ['wheel', 'dependency', 3, 250],
    ]);
    expect(result.nodes.find((node) => node.name === 'idle')).toMatchObject({ idleSeconds: 900 });
  });

  it('falls back to the first start and queue edges only without measuredStartedAtMs or a plan', () => {
    const schedule = toScheduleFromRun({ run: { ...run, measuredStartedAtMs: null } });
    expect(schedule.originMs).toBe(RUN_T0_MS + 2000);
    expect(schedule.targets.wheel?.deps).toEqual([]);
    expect(schedule.notes.at(-1)).toMatch(/no plan.json/);
  });
});
