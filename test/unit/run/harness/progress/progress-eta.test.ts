import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Plan } from '../../../../../src/artifacts/index.js';
import { type CostDistribution } from '../../../../../src/plan/index.js';
import { planWithForecast } from '../../../../../src/plan/plan-with-forecast.js';
import {
  applyQueueEvent,
  createProgress,
  createProgressState,
  renderProgressView,
} from '../../../../../src/run/harness/progress/progress.js';
import { createFakeClock } from '../../../../helpers/fake-clock.js';

// The live view's ETAs come from the plan replayed from the run so far, never from plan − elapsed: the frames a
// terminal gets, with a fake clock and fake timers. The cases are the issue's, seen on the box: a target 10× over
// its plan, a node blocked on another node's target, and Ctrl-C.

const T0 = 1_800_000_000_000;
const entry = (node: string, startSeconds: number, finishSeconds: number, deps: string[] = []) => ({
  node,
  startSeconds,
  finishSeconds,
  buildSeconds: finishSeconds - startSeconds,
  exportSeconds: 0,
  setupSeconds: 0,
  deps,
  waitFor: deps,
});
/** The box's warm plan, cut down: pytorch on bench, then one wheel each on kiln and anvil (no forecast in it). */
const boxPlan = {
  queues: { anvil: ['pytorch-wheel'], bench: ['pytorch'], kiln: ['bitsandbytes-wheel'] },
  nodes: ['anvil', 'bench', 'kiln'].map((name) => ({ name, builder: name, linkMbps: 5, speed: 1 })),
  targets: {
    pytorch: entry('bench', 0, 36),
    'bitsandbytes-wheel': entry('kiln', 36, 38, ['pytorch']),
    'pytorch-wheel': entry('anvil', 36, 37.8, ['pytorch']),
  },
} as unknown as Plan;

/** The cursor-up (and clear) a redraw starts with. */
const CURSOR_UP = new RegExp(`${String.fromCharCode(27)}\\[\\d+F(?:${String.fromCharCode(27)}\\[J)?`);

function createView(plan: Plan, signal?: AbortSignal) {
  const clock = createFakeClock(T0);
  let out = '';
  const progress = createProgress({
    plan,
    clock,
    stream: { write: (text: string) => (out += text) } as never,
    live: true,
    signal,
  });
  /** The last frame drawn: the lines after the last cursor-up, without the line-clear codes. */
  const frame = () =>
    (out.split(CURSOR_UP).at(-1) ?? '')
      .split('\n')
      .map((line) => line.replace('\u001b[2K', ''))
      .filter(Boolean);
  /** Time passes: the clock and the view's 1 s redraw timer together. */
  const advance = (ms: number) => {
    for (let left = ms; left > 0; left -= 1000) {
      clock.advance(Math.min(1000, left));
      vi.advanceTimersByTime(Math.min(1000, left));
    }
  };
  const line = (node: string) => frame().find((l) => l.startsWith(node))!;
  return { progress, clock, frame, advance, line };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('live ETAs from the replay', () => {
  it('a node blocked on another node’s target counts the wait: 33 s, not its own 2 s of queue', () => {
    const view = createView(boxPlan);
    view.progress.phase('measured run: warm into rocm');
    view.progress.onQueueEvent({ type: 'started', target: 'pytorch', node: 'bench', atMs: T0 });
    view.advance(5_000);
    expect(view.line('anvil')).toBe('anvil  waiting  queue 1 left  ETA 0m33s');
    expect(view.line('kiln')).toBe('kiln   waiting  queue 1 left  ETA 0m33s');
    expect(view.frame()[0]).toBe(
      'measured run: warm into rocm  ETA 0m33s (the plan replayed from the run so far)',
    );
    // Between replays the ETAs count down with the clock.
    view.advance(2_000);
    expect(view.line('anvil')).toBe('anvil  waiting  queue 1 left  ETA 0m31s');
    view.progress.stop();
  });

  it('a target 10× over its plan never shows ETA 0m00s while it runs: it says it is over, and overdue', () => {
    const view = createView(boxPlan);
    view.progress.phase('measured run: warm into rocm');
    view.progress.onQueueEvent({ type: 'started', target: 'pytorch', node: 'bench', atMs: T0 });
    view.advance(36_000);
    view.progress.onQueueEvent({
      type: 'settled',
      target: 'pytorch',
      outcome: { status: 'ok', node: 'bench', startedAtMs: T0, finishedAtMs: T0 + 36_000 },
    });
    view.progress.onQueueEvent({
      type: 'started',
      target: 'bitsandbytes-wheel',
      node: 'kiln',
      atMs: T0 + 36_000,
    });
    view.progress.onQueueEvent({
      type: 'started',
      target: 'pytorch-wheel',
      node: 'anvil',
      atMs: T0 + 36_000,
    });
    // Within its plan (2 s; this plan has no forecast, so the replay is the plan itself) kiln counts down.
    view.advance(1_000);
    expect(view.line('kiln')).toMatch(/ {2}ETA 0m01s$/);
    expect(view.frame()[0]).toMatch(/ ETA 0m01s \(/);
    view.advance(800);
    view.progress.onQueueEvent({
      type: 'settled',
      target: 'pytorch-wheel',
      outcome: { status: 'ok', node: 'anvil', startedAtMs: T0 + 36_000, finishedAtMs: T0 + 37_800 },
    });
    // Then every redraw for 20 s, a little under a second apart (as a busy host's timer gives them): it has run past
    // its plan, the replay has no draw left that ends after now, and kiln's line and the header say overdue rather
    // than a guess, never 0m00s (issue 36 item 12).
    for (let tick = 1; tick <= 20; tick++) {
      view.clock.advance(950);
      vi.advanceTimersByTime(1000);
      const kiln = view.line('kiln');
      expect(kiln).toMatch(/^kiln {3}bitsandbytes-wheel {2}0m\d\ds \/ 0m02s planned/);
      expect(kiln, `tick ${tick}`).toMatch(/ {2}ETA overdue$/);
      expect(view.frame()[0], `tick ${tick}`).toBe(
        'measured run: warm into rocm  ETA overdue: bitsandbytes-wheel on kiln past every forecast draw (the plan replayed from the run so far)',
      );
    }
    expect(view.line('kiln')).toBe(
      'kiln   bitsandbytes-wheel  0m21s / 0m02s planned (10× over)  queue 0 left  ETA overdue',
    );
    expect(view.line('anvil')).toBe('anvil  done  queue 0 left');
    view.progress.stop();
  });

  it('after Ctrl-C no ETA stays on screen: the view says the run is interrupted', () => {
    const controller = new AbortController();
    const view = createView(boxPlan, controller.signal);
    view.progress.phase('measured run: warm into rocm');
    view.progress.onQueueEvent({ type: 'started', target: 'pytorch', node: 'bench', atMs: T0 });
    view.advance(10_000);
    expect(view.frame()[0]).toBe(
      'measured run: warm into rocm  ETA 0m28s (the plan replayed from the run so far)',
    );
    controller.abort('SIGINT');
    expect(view.frame()).toEqual([
      'measured run: warm into rocm  interrupted: no ETA',
      'anvil  waiting  queue 1 left  ETA — (interrupted)',
      'bench  pytorch  0m10s / 0m36s planned  queue 0 left  ETA — (interrupted)',
      'kiln   waiting  queue 1 left  ETA — (interrupted)',
    ]);
    view.advance(3_000);
    view.progress.stop();
    expect(view.frame().join('\n')).not.toMatch(/ETA \d/);
  });

  it('with a forecast in the plan the ETAs are its conditioned p50s, the same replay as the forecast line', () => {
    const dist = (seconds: number): CostDistribution => ({
      buildSeconds: seconds,
      buildSigma: 0.1,
      buildRuns: 6,
      cacheBytes: 0,
      cacheSigma: 0,
      cacheRuns: 6,
    });
    const distributions = new Map([
      ['pytorch', dist(600)],
      ['vllm-wheel', dist(300)],
    ]);
    const plan = planWithForecast({
      graph: { targets: ['pytorch', 'vllm-wheel'], deps: { 'vllm-wheel': ['pytorch'] } },
      costs: new Map(
        [...distributions].map(([n, d]) => [n, { buildSeconds: d.buildSeconds, cacheBytes: 0 }]),
      ),
      nodes: [{ name: 'forge', builder: 'forge', linkMbps: 100, speed: 1 }],
      arch: 'gfx1201',
      createdAt: '2026-12-06T00:00:00Z',
      distributions,
      draws: 500,
    });
    const view = createView(plan);
    view.progress.phase('measured run: cold into rocm');
    view.progress.onQueueEvent({ type: 'started', target: 'pytorch', node: 'forge', atMs: T0 });
    // pytorch runs 720 s, 1.2× its plan (about its 95th percentile): the replay conditions on it (≈ 720 + a bit + 300 s
    // of vllm-wheel).
    view.advance(720_000);
    const header = view.frame()[0]!;
    const eta = /ETA (\d+)m(\d\d)s/.exec(header)!;
    const seconds = Number(eta[1]) * 60 + Number(eta[2]);
    expect(seconds).toBeGreaterThan(250);
    expect(seconds).toBeLessThan(420);
    const p50 = /\(p50 (\d+)m(\d\d)s\)/.exec(view.frame()[1]!)!;
    expect(Math.abs(Number(p50[1]) * 60 + Number(p50[2]) - seconds)).toBeLessThanOrEqual(5);
    view.progress.stop();
  });
  it('a node blocked on an overdue target says so, and gets an ETA again once that target finishes', () => {
    const view = createView(boxPlan);
    view.progress.phase('measured run: warm into rocm');
    view.progress.onQueueEvent({ type: 'started', target: 'pytorch', node: 'bench', atMs: T0 });
    view.advance(40_000);
    expect(view.frame()).toEqual([
      'measured run: warm into rocm  ETA overdue: pytorch on bench past every forecast draw (the plan replayed from the run so far)',
      'anvil  waiting  queue 1 left  ETA unknown (waits on overdue pytorch)',
      'bench  pytorch  0m40s / 0m36s planned  queue 0 left  ETA overdue',
      'kiln   waiting  queue 1 left  ETA unknown (waits on overdue pytorch)',
    ]);
    view.progress.onQueueEvent({
      type: 'settled',
      target: 'pytorch',
      outcome: { status: 'ok', node: 'bench', startedAtMs: T0, finishedAtMs: T0 + 40_000 },
    });
    view.advance(1_000);
    // The wheels are planned at 1.8 s and 2 s after pytorch; one second has passed, and neither has started.
    expect(view.line('anvil')).toMatch(/^anvil {2}waiting {2}queue 1 left {2}ETA 0m0[1-2]s$/);
    expect(view.line('kiln')).toMatch(/^kiln {3}waiting {2}queue 1 left {2}ETA 0m0[1-2]s$/);
    expect(view.frame()[0]).toMatch(/ ETA 0m0[1-2]s \(/);
    view.progress.stop();
  });

  it('with a forecast, a target far past every draw reads overdue on its node, in the header and the forecast line', () => {
    const dist = (seconds: number): CostDistribution => ({
      buildSeconds: seconds,
      buildSigma: 0.1,
      buildRuns: 6,
      cacheBytes: 0,
      cacheSigma: 0,
      cacheRuns: 6,
    });
    const distributions = new Map([
      ['pytorch', dist(600)],
      ['vllm-wheel', dist(300)],
    ]);
    const plan = planWithForecast({
      graph: { targets: ['pytorch', 'vllm-wheel'], deps: { 'vllm-wheel': ['pytorch'] } },
      costs: new Map(
        [...distributions].map(([n, d]) => [n, { buildSeconds: d.buildSeconds, cacheBytes: 0 }]),
      ),
      nodes: [{ name: 'forge', builder: 'forge', linkMbps: 100, speed: 1 }],
      arch: 'gfx1201',
      createdAt: '2026-12-06T00:00:00Z',
      distributions,
      draws: 500,
    });
    const view = createView(plan);
    view.progress.phase('measured run: cold into rocm');
    view.progress.onQueueEvent({ type: 'started', target: 'pytorch', node: 'forge', atMs: T0 });
    // 1,200 s is twice pytorch's median, 6 of its draw widths above it: no draw runs that long.
    view.advance(1_200_000);
    expect(view.frame()).toEqual([
      'measured run: cold into rocm  ETA overdue: pytorch on forge past every forecast draw (the plan replayed from the run so far)',
      'forecast: no band while pytorch runs past every forecast draw (the band would only guess when it ends)',
      'forge  pytorch  20m00s / 10m00s planned (2× over)  queue 1 left  ETA overdue',
    ]);
    view.progress.stop();
  });
  it('a target an older replay found overdue is not overdue once it has finished (before the next replay)', () => {
    const state = createProgressState(boxPlan);
    applyQueueEvent(state, { type: 'started', target: 'pytorch', node: 'bench', atMs: T0 });
    applyQueueEvent(state, {
      type: 'settled',
      target: 'pytorch',
      outcome: { status: 'ok', node: 'bench', startedAtMs: T0, finishedAtMs: T0 + 40_000 },
    });
    const nowMs = T0 + 40_500;
    const estimate = {
      atMs: T0 + 39_000,
      endMs: T0 + 43_000,
      finishMs: { pytorch: T0 + 40_000, 'pytorch-wheel': T0 + 42_000, 'bitsandbytes-wheel': T0 + 43_000 },
      overdue: ['pytorch'],
    };
    expect(renderProgressView({ plan: boxPlan, state, nowMs, estimate })).toEqual([
      'starting  ETA 0m03s (the plan replayed from the run so far)',
      'anvil  waiting  queue 1 left  ETA 0m02s',
      'bench  done  queue 0 left',
      'kiln   waiting  queue 1 left  ETA 0m03s',
    ]);
  });
});
