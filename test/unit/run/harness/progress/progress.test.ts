import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../../../src/artifacts/index.js';
import {
  applyQueueEvent,
  createProgress,
  createProgressState,
  formatLiveDuration,
  renderProgressView,
  renderQueueEventLine,
  replayLive,
} from '../../../../../src/run/harness/progress/progress.js';
import { createFakeClock } from '../../../../helpers/fake-clock.js';

const entry = (node: string, startSeconds: number, finishSeconds: number) => ({
  node,
  startSeconds,
  finishSeconds,
  buildSeconds: finishSeconds - startSeconds,
  exportSeconds: 0,
  setupSeconds: 0,
  deps: [],
  waitFor: [],
});
// A plan made before forecasts: the live view replays its own figures (one draw, no spread).
const plan = {
  queues: { forge: ['pytorch', 'vllm-wheel'], kiln: ['onnx-wheel'] },
  nodes: [
    { name: 'forge', builder: 'forge', linkMbps: 100, speed: 1 },
    { name: 'kiln', builder: 'kiln', linkMbps: 100, speed: 1 },
  ],
  targets: {
    pytorch: entry('forge', 0, 600),
    'vllm-wheel': entry('forge', 600, 900),
    'onnx-wheel': entry('kiln', 0, 120),
  },
} as unknown as Plan;

describe('progress', () => {
  it('formats durations', () => {
    expect(formatLiveDuration(0)).toBe('0m00s');
    expect(formatLiveDuration(61.4)).toBe('1m01s');
    expect(formatLiveDuration(3725)).toBe('1h02m');
  });

  it('renders per node: current target, elapsed vs planned, queue left, ETA from the plan replayed from the run', () => {
    const state = createProgressState(plan);
    state.phase = 'measured run';
    applyQueueEvent(state, { type: 'started', target: 'pytorch', node: 'forge', atMs: 0 });
    applyQueueEvent(state, { type: 'started', target: 'onnx-wheel', node: 'kiln', atMs: 0 });
    applyQueueEvent(state, {
      type: 'settled',
      target: 'onnx-wheel',
      outcome: {
        status: 'failed',
        node: 'kiln',
        startedAtMs: 0,
        finishedAtMs: 5_000,
        exitCode: 1,
        error: 'boom',
      },
    });
    const { estimate } = replayLive(plan, state, 100_000);
    expect(renderProgressView({ plan, state, nowMs: 100_000, estimate })).toEqual([
      'measured run  ETA 13m20s (the plan replayed from the run so far)',
      'forge  pytorch  1m40s / 10m00s planned  queue 1 left  ETA 13m20s',
      'kiln   done  queue 0 left  1 failed/skipped',
    ]);
    // Without a replay there is no ETA, rather than one made up from plan − elapsed.
    expect(renderProgressView({ plan, state, nowMs: 100_000 })[0]).toBe('measured run  ETA —');
  });

  it('prints one plain line per event when not on a TTY', () => {
    const clock = createFakeClock(0);
    const lines: string[] = [];
    const progress = createProgress({
      plan,
      clock,
      stream: { write: (text: string) => lines.push(text) } as never,
      live: false,
    });
    progress.phase('measured run');
    progress.onQueueEvent({ type: 'started', target: 'pytorch', node: 'forge', atMs: 0 });
    progress.onQueueEvent({
      type: 'settled',
      target: 'pytorch',
      outcome: { status: 'ok', node: 'forge', startedAtMs: 0, finishedAtMs: 590_000 },
    });
    progress.onQueueEvent({
      type: 'settled',
      target: 'vllm-wheel',
      outcome: { status: 'skipped', node: 'forge', reason: 'interrupted' },
    });
    progress.stop();
    expect(lines.join('')).toBe(
      [
        '== measured run',
        'forge: started pytorch (planned 10m00s, 1 queued after it)',
        'forge: finished pytorch in 9m50s',
        'forge: skipped vllm-wheel: interrupted',
        '',
      ].join('\n'),
    );
  });

  it('on a TTY redraws the view in place and keeps failures as lines above it', () => {
    const clock = createFakeClock(0);
    let out = '';
    const progress = createProgress({
      plan,
      clock,
      stream: { write: (text: string) => (out += text) } as never,
      live: true,
    });
    progress.phase('measured run');
    progress.onQueueEvent({ type: 'started', target: 'pytorch', node: 'forge', atMs: 0 });
    progress.onQueueEvent({
      type: 'settled',
      target: 'pytorch',
      outcome: {
        status: 'failed',
        node: 'forge',
        startedAtMs: 0,
        finishedAtMs: 1_000,
        exitCode: 1,
        error: 'ERROR: x',
      },
    });
    progress.stop();
    expect(out).toContain('\u001b[3F');
    expect(out).toContain('forge: FAILED pytorch after 0m01s: ERROR: x');
    expect(
      renderQueueEventLine({
        plan,
        event: { type: 'started', target: 'x', node: 'n', atMs: 0 },
        node: undefined,
      }),
    ).toBe('?: started x (planned 0m00s, 0 queued after it)');
  });

  it("under guided dispatch a target that starts on another node moves to that node's row and its line says so", () => {
    const state = createProgressState(plan);
    const event = { type: 'started' as const, target: 'vllm-wheel', node: 'kiln', atMs: 0, reason: 'fits' };
    const node = applyQueueEvent(state, event);
    expect(node?.node).toBe('kiln');
    expect(state.nodes.map((entry) => [entry.node, entry.left, entry.current?.target])).toEqual([
      ['forge', ['pytorch'], undefined],
      ['kiln', ['vllm-wheel', 'onnx-wheel'], 'vllm-wheel'],
    ]);
    expect(renderQueueEventLine({ plan, event, node })).toBe(
      'kiln: started vllm-wheel (planned 5m00s, 1 queued after it, moved from forge by guided dispatch (fits))',
    );
    applyQueueEvent(state, {
      type: 'settled',
      target: 'vllm-wheel',
      outcome: { status: 'ok', node: 'kiln', startedAtMs: 0, finishedAtMs: 1_000 },
    });
    expect(state.nodes[1]).toMatchObject({ left: ['onnx-wheel'], current: undefined });
  });
});
