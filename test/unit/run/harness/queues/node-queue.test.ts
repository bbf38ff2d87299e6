import { describe, expect, it } from 'vitest';
import {
  findQueueProblems,
  runNodeQueues,
  type QueueEvent,
} from '../../../../../src/run/harness/queues/node-queue.js';
import { createSimulatedExecutor } from './fake-executor.js';

const startOf = (calls: { job: { target: string }; atMs: number }[], target: string) =>
  calls.find((call) => call.job.target === target)?.atMs;

describe('runNodeQueues', () => {
  it('runs each queue in order and starts a target only when its in-run deps finished', async () => {
    const sim = createSimulatedExecutor({
      pytorch: { durationMs: 5_000 },
      triton: { durationMs: 3_000 },
      small: { durationMs: 1_000 },
      vllm: { durationMs: 2_000 },
    });
    const outcomes = await sim.drive(
      runNodeQueues({
        queues: { a: ['pytorch', 'triton'], b: ['small', 'vllm'] },
        deps: { pytorch: [], triton: ['pytorch'], small: [], vllm: ['pytorch', 'triton', 'rocm-base'] },
        executor: sim.executor,
        clock: sim.clock,
        signal: new AbortController().signal,
      }),
    );
    expect(startOf(sim.calls, 'pytorch')).toBe(1_000);
    expect(startOf(sim.calls, 'small')).toBe(1_000);
    expect(startOf(sim.calls, 'triton')).toBe(6_000);
    // vllm waits for triton (on another node), not for the external rocm-base.
    expect(startOf(sim.calls, 'vllm')).toBe(9_000);
    expect(outcomes.vllm).toEqual({ status: 'ok', node: 'b', startedAtMs: 9_000, finishedAtMs: 11_000 });
    expect(Object.values(outcomes).every((outcome) => outcome.status === 'ok')).toBe(true);
  });

  it('skips the dependents of a failed target, transitively, while other queues go on', async () => {
    const sim = createSimulatedExecutor({
      pytorch: { durationMs: 2_000, result: { ok: false, exitCode: 1, error: 'RUN make: exit 2' } },
      other: { durationMs: 1_000 },
    });
    const events: QueueEvent[] = [];
    const outcomes = await sim.drive(
      runNodeQueues({
        queues: { a: ['pytorch', 'other'], b: ['wheel', 'late'], c: ['onnx'] },
        deps: { pytorch: [], other: [], wheel: ['pytorch'], late: ['wheel'], onnx: [] },
        executor: sim.executor,
        clock: sim.clock,
        signal: new AbortController().signal,
        onEvent: (event) => events.push(event),
      }),
    );
    expect(outcomes.pytorch).toMatchObject({ status: 'failed', exitCode: 1, error: 'RUN make: exit 2' });
    expect(outcomes.wheel).toEqual({ status: 'skipped', node: 'b', reason: 'dependency pytorch failed' });
    expect(outcomes.late).toEqual({ status: 'skipped', node: 'b', reason: 'dependency wheel was skipped' });
    expect(outcomes.other?.status).toBe('ok');
    expect(outcomes.onnx?.status).toBe('ok');
    expect(sim.calls.map((call) => call.job.target).sort()).toEqual(['onnx', 'other', 'pytorch']);
    expect(events.filter((event) => event.type === 'settled')).toHaveLength(5);
  });

  it('on abort stops launching, cancels running builds and skips the rest as interrupted', async () => {
    const sim = createSimulatedExecutor({ long: { durationMs: 10_000 }, quick: { durationMs: 1_000 } });
    const controller = new AbortController();
    const outcomes = await sim.drive(
      runNodeQueues({
        queues: { a: ['long', 'after-long'], b: ['quick', 'next'] },
        deps: { long: [], 'after-long': [], quick: [], next: ['long'] },
        executor: sim.executor,
        clock: sim.clock,
        signal: controller.signal,
      }),
      { atMs: 4_000, action: () => controller.abort() },
    );
    expect(outcomes.quick?.status).toBe('ok');
    expect(outcomes.long).toMatchObject({ status: 'interrupted', startedAtMs: 1_000, finishedAtMs: 4_000 });
    expect(outcomes.long?.status === 'interrupted' && outcomes.long.error).toMatch(/^cancelled mid-build/);
    expect(outcomes['after-long']).toEqual({ status: 'skipped', node: 'a', reason: 'interrupted' });
    expect(outcomes.next).toEqual({ status: 'skipped', node: 'b', reason: 'interrupted' });
  });

  it('runs one target at a time across the fleet with maxConcurrent 1 (bench)', async () => {
    const sim = createSimulatedExecutor({
      a1: { durationMs: 1_000 },
      b1: { durationMs: 2_000 },
      a2: { durationMs: 1_000 },
    });
    const outcomes = await sim.drive(
      runNodeQueues({
        queues: { a: ['a1', 'a2'], b: ['b1'] },
        deps: {},
        executor: sim.executor,
        clock: sim.clock,
        signal: new AbortController().signal,
        maxConcurrent: 1,
      }),
    );
    const spans = Object.values(outcomes)
      .map((outcome) => (outcome.status === 'ok' ? [outcome.startedAtMs, outcome.finishedAtMs] : [0, 0]))
      .sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0));
    for (let i = 1; i < spans.length; i += 1)
      expect(spans[i]?.[0]).toBeGreaterThanOrEqual(spans[i - 1]?.[1] ?? 0);
    expect(spans.at(-1)?.[1]).toBe(5_000);
  });

  it('turns an executor that throws into a failed outcome', async () => {
    const outcomes = await runNodeQueues({
      queues: { a: ['x', 'y'] },
      deps: { y: ['x'] },
      executor: { run: () => Promise.reject(new Error('spawn docker ENOENT')) },
      clock: { nowMs: () => 7 },
      signal: new AbortController().signal,
    });
    expect(outcomes.x).toEqual({
      status: 'failed',
      node: 'a',
      startedAtMs: 7,
      finishedAtMs: 7,
      exitCode: null,
      error: 'executor threw: spawn docker ENOENT',
    });
    expect(outcomes.y).toEqual({ status: 'skipped', node: 'a', reason: 'dependency x failed' });
  });
});

describe('findQueueProblems', () => {
  it.each([
    ['valid queues', { a: ['x', 'y'], b: ['z'] }, { y: ['x'], z: ['x'] }, []],
    ['a target queued twice', { a: ['x'], b: ['x'] }, {}, ['target x is queued on both a and b']],
    [
      'a queue whose order contradicts the deps',
      { a: ['y', 'x'] },
      { y: ['x'] },
      ['queue a would wait forever: y needs x, which can never finish first'],
    ],
    [
      'a cross-node wait cycle',
      { a: ['p', 'q'], b: ['r', 's'] },
      { p: ['s'], r: ['q'] },
      [
        'queue a would wait forever: p needs s, which can never finish first',
        'queue b would wait forever: r needs q, which can never finish first',
      ],
    ],
  ])('%s', (_name, queues, deps, expected) => {
    expect(findQueueProblems(queues, deps as Record<string, string[]>)).toEqual(expected);
  });
});
