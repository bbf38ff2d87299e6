import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../../../src/artifacts/index.js';
import { createTestPlan } from '../../../../helpers/create-test-plan.js';
import { createGuidedChooser } from '../../../../../src/run/harness/queues/create-guided-chooser.js';
import { runGuidedQueues, type GuidedSnapshot } from '../../../../../src/run/harness/queues/guided-queues.js';
import { runNodeQueues, type QueueEvent } from '../../../../../src/run/harness/queues/node-queue.js';
import { createSimulatedExecutor, type FakeJobSpec } from './fake-executor.js';

// Guided dispatch on a simulated clock (1 plan second = 1,000 fake ms; the fake clock starts at 1,000 ms, which is
// the measured start, so plan second t is fake ms 1,000 + 1,000 t). The policy is the real `chooseGuidedTarget`.

const waitsOf = (plan: Plan) =>
  Object.fromEntries(Object.entries(plan.targets).map(([target, entry]) => [target, entry.waitFor]));
const seconds = (durations: Record<string, number>): Record<string, FakeJobSpec> =>
  Object.fromEntries(Object.entries(durations).map(([target, s]) => [target, { durationMs: s * 1000 }]));

function runGuided(
  plan: Plan,
  specs: Record<string, FakeJobSpec>,
  hooks: { signal?: AbortSignal; nodes?: string[] } = {},
) {
  const sim = createSimulatedExecutor(specs);
  const events: QueueEvent[] = [];
  const snapshots: GuidedSnapshot[] = [];
  const chooser = createGuidedChooser({ plan, originMs: sim.clock.nowMs() });
  const promise = runGuidedQueues({
    queues: plan.queues,
    nodes: hooks.nodes ?? plan.nodes.map((node) => node.name),
    deps: waitsOf(plan),
    executor: sim.executor,
    clock: sim.clock,
    signal: hooks.signal ?? new AbortController().signal,
    choose: (snapshot) => {
      snapshots.push(structuredClone(snapshot));
      return chooser(snapshot);
    },
    onEvent: (event) => events.push(event),
    wakeAfter: sim.wakeAfter,
  });
  return { sim, events, snapshots, promise };
}

const startedEvents = (events: QueueEvent[]) =>
  events.flatMap((event) => (event.type === 'started' ? [event] : []));

// a: p (0–10), q (10–20); b: r (0–10), s (20–30) waiting for p and q. r finishes at 2 s instead of 10.
const plan = createTestPlan(['a', 'b'], {
  p: { node: 'a', start: 0, finish: 10 },
  q: { node: 'a', start: 10, finish: 20 },
  r: { node: 'b', start: 0, finish: 10 },
  s: { node: 'b', start: 20, finish: 30, waitFor: ['p', 'q'] },
});
const noisy = seconds({ p: 10, q: 10, r: 2, s: 10 });

describe('runGuidedQueues with chooseGuidedTarget', () => {
  it('a target that overruns its plan sends no event, yet the target queued behind it moves to an idle node', async () => {
    // a: x (0–2), y (2–6); b (half speed, y costs 8 there): z (0–4). x takes 20 s instead of 2.
    const overrunPlan = createTestPlan(
      ['a', 'b'],
      {
        x: { node: 'a', start: 0, finish: 2 },
        y: { node: 'a', start: 2, finish: 6 },
        z: { node: 'b', start: 0, finish: 4 },
      },
      { b: 0.5 },
    );
    const { sim, events, promise } = runGuided(overrunPlan, seconds({ x: 20, y: 4, z: 4 }));
    const outcomes = await sim.drive(promise);
    // z settles at 4 s: x is 2 s over, projected to end at 6, y on a at 10; on b y would end at 12, so b waits.
    // Asked again each second, at 6 s x is projected to end at 10, y on a at 14, on b at 14: y moves to b.
    expect(startedEvents(events).map(({ target, node, atMs }) => [target, node, atMs])).toEqual([
      ['x', 'a', 1_000],
      ['z', 'b', 1_000],
      ['y', 'b', 7_000],
    ]);
    expect(outcomes.y).toMatchObject({ status: 'ok', node: 'b' });
  });

  it('a node that goes idle takes a ready target the policy allows, and a freed node takes the next one', async () => {
    const { sim, events, promise } = runGuided(plan, noisy);
    const outcomes = await sim.drive(promise);
    // At 2 s b is idle, its head s is not ready; q fits (2 + 10 ≤ q's projected finish 20, s not delayed).
    // At 12 s q settles: a (first by name, its queue empty) takes s, which finishes at 22 ≤ its projection 22.
    expect(
      startedEvents(events).map(({ target, node, atMs, reason }) => [target, node, atMs, reason]),
    ).toEqual([
      ['p', 'a', 1_000, 'planned'],
      ['r', 'b', 1_000, 'planned'],
      ['q', 'b', 3_000, 'fits'],
      ['s', 'a', 13_000, 'fits'],
    ]);
    expect(outcomes.q).toEqual({ status: 'ok', node: 'b', startedAtMs: 3_000, finishedAtMs: 13_000 });
    expect(outcomes.s).toEqual({ status: 'ok', node: 'a', startedAtMs: 13_000, finishedAtMs: 23_000 });
  });

  it('passes the contract: idle nodes in name order, ready targets, started (with finish once settled), plan seconds', async () => {
    const { sim, snapshots, promise } = runGuided(plan, noisy);
    await sim.drive(promise);
    const atQ = snapshots.find((snapshot) => snapshot.readyTargets.includes('s'))!;
    expect(atQ).toMatchObject({ idleNode: 'a', readyTargets: ['s'], nowMs: 13_000, skippedTargets: [] });
    expect(atQ.started).toEqual({
      p: { node: 'a', startedAtMs: 1_000, finishedAtMs: 11_000 },
      q: { node: 'b', startedAtMs: 3_000, finishedAtMs: 13_000 },
      r: { node: 'b', startedAtMs: 1_000, finishedAtMs: 3_000 },
    });
    // At the very start both nodes are asked, a before b.
    expect(snapshots.slice(0, 2).map((snapshot) => [snapshot.idleNode, snapshot.readyTargets])).toEqual([
      ['a', ['p', 'q', 'r']],
      ['b', ['q', 'r']],
    ]);
  });

  it('without noise every target starts and finishes exactly when fixed queues would run it', async () => {
    const exact = seconds({ p: 10, q: 10, r: 10, s: 10 });
    const guided = runGuided(plan, exact);
    const guidedOutcomes = await guided.sim.drive(guided.promise);
    const fixed = createSimulatedExecutor(exact);
    const fixedOutcomes = await fixed.drive(
      runNodeQueues({
        queues: plan.queues,
        deps: waitsOf(plan),
        executor: fixed.executor,
        clock: fixed.clock,
        signal: new AbortController().signal,
      }),
    );
    const times = (outcomes: typeof fixedOutcomes) =>
      Object.fromEntries(
        Object.entries(outcomes).map(([target, o]) => [
          target,
          o.status === 'ok' ? [o.startedAtMs, o.finishedAtMs] : o.status,
        ]),
      );
    expect(times(guidedOutcomes)).toEqual(times(fixedOutcomes));
    // s may move to a (idle first by name, its queue empty) because it finishes there exactly when planned.
    expect(startedEvents(guided.events).map((event) => [event.target, event.reason])).toEqual([
      ['p', 'planned'],
      ['r', 'planned'],
      ['q', 'planned'],
      ['s', 'fits'],
    ]);
  });

  it('fixed queues keep their order: the idle node waits for its own head', async () => {
    const sim = createSimulatedExecutor(noisy);
    const outcomes = await sim.drive(
      runNodeQueues({
        queues: plan.queues,
        deps: waitsOf(plan),
        executor: sim.executor,
        clock: sim.clock,
        signal: new AbortController().signal,
      }),
    );
    expect(
      Object.fromEntries(Object.entries(outcomes).map(([target, outcome]) => [target, outcome.node])),
    ).toEqual({ p: 'a', q: 'a', r: 'b', s: 'b' });
    expect(outcomes.q).toMatchObject({ startedAtMs: 11_000 });
    expect(outcomes.s).toMatchObject({ startedAtMs: 21_000, finishedAtMs: 31_000 });
  });

  it('a failure skips its dependents (transitively) at once, other work goes on, and the policy is told', async () => {
    const chain = createTestPlan(['a', 'b'], {
      p: { node: 'a', start: 0, finish: 10 },
      t: { node: 'a', start: 10, finish: 20, waitFor: ['p'] },
      u: { node: 'b', start: 20, finish: 25, waitFor: ['t'] },
      v: { node: 'b', start: 0, finish: 10 },
      w: { node: 'b', start: 10, finish: 20 },
    });
    const { sim, events, snapshots, promise } = runGuided(chain, {
      ...seconds({ v: 10, w: 10 }),
      p: { durationMs: 3_000, result: { ok: false, exitCode: 1, error: 'RUN make: exit 2' } },
    });
    const outcomes = await sim.drive(promise);
    expect(outcomes.p).toMatchObject({ status: 'failed', node: 'a', error: 'RUN make: exit 2' });
    expect(outcomes.t).toEqual({ status: 'skipped', node: 'a', reason: 'dependency p failed' });
    expect(outcomes.u).toEqual({ status: 'skipped', node: 'b', reason: 'dependency t was skipped' });
    expect(outcomes.v?.status).toBe('ok');
    expect(outcomes.w?.status).toBe('ok');
    expect(sim.calls.map((call) => call.job.target).sort()).toEqual(['p', 'v', 'w']);
    expect(events.filter((event) => event.type === 'settled')).toHaveLength(5);
    const afterFailure = snapshots.filter((snapshot) => snapshot.nowMs >= 4_000);
    expect(afterFailure.length).toBeGreaterThan(0);
    for (const snapshot of afterFailure) expect(snapshot.skippedTargets).toEqual(['t', 'u']);
  });

  it('on abort stops launching, cancels running builds and skips the rest as interrupted', async () => {
    const controller = new AbortController();
    const { sim, promise } = runGuided(plan, seconds({ p: 10, q: 10, r: 10, s: 10 }), {
      signal: controller.signal,
    });
    const outcomes = await sim.drive(promise, { atMs: 5_000, action: () => controller.abort('SIGINT') });
    expect(outcomes.p).toMatchObject({ status: 'interrupted', startedAtMs: 1_000, finishedAtMs: 5_000 });
    expect(outcomes.p?.status === 'interrupted' && outcomes.p.error).toMatch(/^cancelled mid-build/);
    expect(outcomes.r).toMatchObject({ status: 'interrupted' });
    expect(outcomes.q).toEqual({ status: 'skipped', node: 'a', reason: 'interrupted' });
    expect(outcomes.s).toEqual({ status: 'skipped', node: 'b', reason: 'interrupted' });
    expect(sim.calls).toHaveLength(2);
  });

  it('a policy that throws stops launching and says why, instead of hanging', async () => {
    const sim = createSimulatedExecutor(noisy);
    let calls = 0;
    const outcomes = await sim.drive(
      runGuidedQueues({
        queues: plan.queues,
        deps: waitsOf(plan),
        executor: sim.executor,
        clock: sim.clock,
        signal: new AbortController().signal,
        choose: (snapshot) => {
          calls += 1;
          if (calls > 1) throw new Error('node `z` is not in the plan');
          return { target: snapshot.readyTargets[0]!, reason: 'planned' };
        },
      }),
    );
    expect(outcomes.p?.status).toBe('ok');
    for (const target of ['q', 'r', 's'])
      expect(outcomes[target]).toMatchObject({
        status: 'skipped',
        reason: 'not started: guided dispatch failed (node `z` is not in the plan)',
      });
  });
});
