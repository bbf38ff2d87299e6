import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseGuidedTarget, createPlan, type DispatchPlan } from '../../../src/plan/index.js';
import { simulateDispatch } from '../../../src/plan/simulate-dispatch.js';
import { simulatePlan } from '../../../src/plan/simulate-plan.js';
import { toCostsFromPlan } from '../../../src/plan/dispatch-guide.js';
import { instanceArbitrary } from './random-instance.js';

const node = (name: string, speed: number) => ({
  name,
  builder: name,
  linkMbps: 1000,
  speed,
  busySeconds: 0,
  idleSeconds: 0,
  dependencyWaitSeconds: 0,
  placementLossSeconds: 0,
});
const target = (nodeName: string, startSeconds: number, finishSeconds: number, waitFor: string[] = []) => ({
  node: nodeName,
  startSeconds,
  finishSeconds,
  buildSeconds: finishSeconds - startSeconds,
  exportSeconds: 0,
  setupSeconds: 0,
  deps: waitFor,
  waitFor,
});

// A: x then y (y waits for z) then u; B: z then w; C (half speed) has nothing planned.
const plan: DispatchPlan = {
  queues: { A: ['x', 'y', 'u'], B: ['z', 'w'], C: [] },
  targets: {
    x: target('A', 0, 100),
    y: target('A', 150, 200, ['z']),
    u: target('A', 200, 210),
    z: target('B', 0, 150),
    w: target('B', 150, 190),
  },
  nodes: [node('A', 1), node('B', 1), node('C', 0.5)],
};

describe('chooseGuidedTarget', () => {
  it('takes the node’s own next target when it is ready', () => {
    expect(
      chooseGuidedTarget({ idleNode: 'A', readyTargets: ['x', 'z', 'w', 'u'], plan, nowSeconds: 0 }),
    ).toEqual({ target: 'x', reason: 'planned' });
  });

  it('takes another node’s ready target when that finishes it no later than planned and its own next target waits anyway', () => {
    const started = {
      x: { node: 'A', startSeconds: 0, finishSeconds: 100 },
      z: { node: 'B', startSeconds: 0 },
    };
    // y waits for z (expected to finish at 150); w takes 40 s here, done at 140 ≤ its projected 190 on B.
    expect(
      chooseGuidedTarget({ idleNode: 'A', readyTargets: ['w', 'u'], plan, nowSeconds: 100, started }),
    ).toEqual({ target: 'w', reason: 'fits' });
    expect(
      chooseGuidedTarget({ idleNode: 'A', readyTargets: ['u'], plan, nowSeconds: 100, started }),
    ).toEqual({ target: 'u', reason: 'ahead' });
    // At 120, w would end at 160 and push y past its expected start at 150: wait (u still fits, 10 s).
    expect(
      chooseGuidedTarget({ idleNode: 'A', readyTargets: ['w'], plan, nowSeconds: 120, started }),
    ).toEqual({ target: null, reason: 'wait' });
    expect(
      chooseGuidedTarget({
        idleNode: 'A',
        readyTargets: ['w'],
        plan,
        nowSeconds: 120,
        started,
        slackSeconds: 10,
      }),
    ).toEqual({ target: 'w', reason: 'fits' });
  });

  it('skips targets that will never run when looking for the node’s own next target', () => {
    const started = {
      x: { node: 'A', startSeconds: 0, finishSeconds: 100 },
      z: { node: 'B', startSeconds: 0, finishSeconds: 90 },
    };
    expect(
      chooseGuidedTarget({
        idleNode: 'A',
        readyTargets: ['u'],
        plan,
        nowSeconds: 100,
        started,
        skippedTargets: ['y'],
      }),
    ).toEqual({ target: 'u', reason: 'planned' });
  });

  it('steals only within (1 + ε) of the cheapest cost when asked to', () => {
    // C runs x in 200 s; A would finish it at 100: no fit. With ε = 1, 200 ≤ 2 × 100.
    expect(chooseGuidedTarget({ idleNode: 'C', readyTargets: ['x'], plan, nowSeconds: 0 })).toEqual({
      target: null,
      reason: 'wait',
    });
    expect(
      chooseGuidedTarget({ idleNode: 'C', readyTargets: ['x'], plan, nowSeconds: 0, stealFactor: 1 }),
    ).toEqual({ target: 'x', reason: 'steal' });
  });

  it('names unknown nodes and targets', () => {
    expect(() => chooseGuidedTarget({ idleNode: 'D', readyTargets: [], plan, nowSeconds: 0 })).toThrow(
      /node `D` is not in the plan \(nodes: A, B, C\)/,
    );
    expect(() => chooseGuidedTarget({ idleNode: 'A', readyTargets: ['nope'], plan, nowSeconds: 0 })).toThrow(
      /ready target `nope` is not in the plan/,
    );
  });
});

describe('simulateDispatch', () => {
  const createdAt = '2026-01-01T00:00:00Z';

  it('fixed reproduces the plan, and simulatePlan under the same noise', () => {
    fc.assert(
      fc.property(instanceArbitrary, fc.nat(), (instance, seed) => {
        const planned = createPlan({ ...instance, arch: 'test', createdAt, maxEvaluations: 300 });
        const fixed = simulateDispatch({ policy: 'fixed', plan: planned, costs: instance.costs });
        expect(fixed.makespanSeconds).toBe(planned.makespanSeconds);
        for (const [name, t] of Object.entries(planned.targets))
          expect(fixed.targets[name]).toEqual({
            node: t.node,
            startSeconds: t.startSeconds,
            finishSeconds: t.finishSeconds,
          });
        const durationNoise = { sigma: 0.3, seed };
        const waitFor = Object.fromEntries(
          Object.entries(planned.targets).map(([name, t]) => [name, t.waitFor]),
        );
        const noisy = simulatePlan({
          queues: planned.queues,
          waitFor,
          costs: instance.costs,
          nodes: instance.nodes,
          durationNoise,
        });
        expect(
          simulateDispatch({ policy: 'fixed', plan: planned, costs: instance.costs, durationNoise }).targets,
        ).toEqual(noisy.targets);
      }),
      { numRuns: 30, seed: 11 },
    );
  });

  it('guided never finishes a target later than planned when durations are as expected; greedy completes every target', () => {
    fc.assert(
      fc.property(instanceArbitrary, (instance) => {
        const planned = createPlan({ ...instance, strategy: 'heft', arch: 'test', createdAt });
        const guided = simulateDispatch({ policy: 'guided', plan: planned, costs: instance.costs });
        for (const [name, t] of Object.entries(planned.targets))
          expect(guided.targets[name]!.finishSeconds).toBeLessThanOrEqual(t.finishSeconds + 1e-6);
        expect(guided.makespanSeconds).toBeLessThanOrEqual(planned.makespanSeconds + 1e-6);
        const greedy = simulateDispatch({
          policy: 'greedy',
          plan: planned,
          costs: instance.costs,
          durationNoise: { sigma: 0.3, seed: 1 },
        });
        expect(Object.keys(greedy.targets).sort()).toEqual([...instance.graph.targets].sort());
        for (const [name, t] of Object.entries(greedy.targets)) {
          for (const dep of planned.targets[name]!.waitFor)
            expect(t.startSeconds).toBeGreaterThanOrEqual(greedy.targets[dep]!.finishSeconds);
        }
      }),
      { numRuns: 40, seed: 12 },
    );
  });

  it('moves targets to an idle node that finishes them sooner than their own node would, and says which', () => {
    const costs = new Map(
      [...toCostsFromPlan(plan)].map(([name, c]) => [name, name === 'z' ? { ...c, buildSeconds: 400 } : c]),
    );
    const result = simulateDispatch({ policy: 'guided', plan, costs });
    // z now takes 400 s, so B would reach w only at 400 and A reaches u after y (450). C (half speed, nothing
    // planned) is idle at 0: w costs it 80 s and ends at 80 ≤ 440, then u ends at 100 ≤ 460.
    expect(result.movedTargets).toEqual(['u', 'w']);
    expect(result.targets.w).toEqual({ node: 'C', startSeconds: 0, finishSeconds: 80 });
    expect(result.targets.u).toEqual({ node: 'C', startSeconds: 80, finishSeconds: 100 });
    expect(result.targets.y).toEqual({ node: 'A', startSeconds: 400, finishSeconds: 450 });
    expect(simulateDispatch({ policy: 'fixed', plan, costs }).makespanSeconds).toBe(460);
    expect(result.makespanSeconds).toBe(450);
  });
});
