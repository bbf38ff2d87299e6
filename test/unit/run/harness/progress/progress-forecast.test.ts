import { describe, expect, it } from 'vitest';
import { type CostDistribution } from '../../../../../src/plan/index.js';
import { planWithForecast } from '../../../../../src/plan/plan-with-forecast.js';
import {
  applyQueueEvent,
  createProgress,
  createProgressState,
  renderLiveForecast,
} from '../../../../../src/run/harness/progress/progress.js';
import { createFakeClock } from '../../../../helpers/fake-clock.js';

// The live view's forecast line: the plan's band, conditioned on what the queue events say has happened.

const dist = (seconds: number, runs = 6): CostDistribution => ({
  buildSeconds: seconds,
  buildSigma: 0.1,
  buildRuns: runs,
  cacheBytes: 0,
  cacheSigma: 0,
  cacheRuns: runs,
});

function planOf(runs: number) {
  const distributions = new Map([
    ['pytorch', dist(600, runs)],
    ['vllm-wheel', dist(300, runs)],
  ]);
  return planWithForecast({
    graph: { targets: ['pytorch', 'vllm-wheel'], deps: { 'vllm-wheel': ['pytorch'] } },
    costs: new Map([...distributions].map(([n, d]) => [n, { buildSeconds: d.buildSeconds, cacheBytes: 0 }])),
    nodes: [{ name: 'forge', builder: 'forge', linkMbps: 100, speed: 1 }],
    arch: 'gfx1201',
    createdAt: '2026-12-06T00:00:00Z',
    distributions,
    draws: 500,
  });
}

const T0 = 1_800_000_000_000;

describe('renderLiveForecast', () => {
  it('says how long is left, conditioned on a slow first target', () => {
    const plan = planOf(6);
    const state = createProgressState(plan);
    expect(renderLiveForecast(plan, state, T0)).toBeUndefined();
    applyQueueEvent(state, { type: 'started', target: 'pytorch', node: 'forge', atMs: T0 });
    applyQueueEvent(state, {
      type: 'settled',
      target: 'pytorch',
      outcome: { status: 'ok', node: 'forge', startedAtMs: T0, finishedAtMs: T0 + 1_200_000 },
    });
    applyQueueEvent(state, { type: 'started', target: 'vllm-wheel', node: 'forge', atMs: T0 + 1_200_000 });
    // 1,260 s in: vllm-wheel has run 60 s of its ~300 s, so ~240 s are left (the band brackets it).
    const line = renderLiveForecast(plan, state, T0 + 1_260_000)!;
    const [, low, high] = /done in (\d+)m\d\ds–(\d+)m\d\ds/.exec(line)!;
    expect(Number(low)).toBeGreaterThanOrEqual(2);
    expect(Number(low)).toBeLessThanOrEqual(4);
    expect(Number(high)).toBeGreaterThanOrEqual(4);
    expect(Number(high)).toBeLessThanOrEqual(6);
    // The planned p10 is the lower bound, 600 + 300 s in a row on one node: no band reaches under it.
    expect(line).toMatch(/planned band p10 15m00s · p90 1[5-7]m\d\ds/);
  });

  it('states a thin history instead of a band', () => {
    const plan = planOf(2);
    const state = createProgressState(plan);
    applyQueueEvent(state, { type: 'started', target: 'pytorch', node: 'forge', atMs: T0 });
    expect(renderLiveForecast(plan, state, T0 + 1000)).toBe(
      'forecast: no band (2 targets have fewer than 3 runs of history)',
    );
  });

  it('prints the planned band once as the measured run starts', () => {
    const written: string[] = [];
    const stream = { write: (chunk: string) => written.push(chunk) > 0, isTTY: false };
    const progress = createProgress({
      plan: planOf(6),
      clock: createFakeClock(T0),
      stream: stream as unknown as NodeJS.WritableStream,
    });
    progress.phase('preflight');
    expect(written.join('')).not.toContain('forecast');
    progress.phase('measured run: cold into rocm-coldrun');
    expect(written.join('')).toMatch(
      /== measured run: cold into rocm-coldrun\nforecast +p10 \S+ · p50 \S+ · p90 \S+/,
    );
    expect(written.join('')).toMatch(/critical odds forge 100 % \(ends it 100 %\)/);
  });

  it('on a terminal draws the forecast again after an event at most every 5 s', () => {
    const written: string[] = [];
    const stream = { write: (chunk: string) => written.push(chunk) > 0, isTTY: true };
    const clock = createFakeClock(T0);
    const progress = createProgress({
      plan: planOf(6),
      clock,
      stream: stream as unknown as NodeJS.WritableStream,
    });
    const forecastLines = () => written.join('').match(/forecast: done in [^\n]*/g) ?? [];
    progress.phase('measured run: cold into rocm-coldrun');
    progress.onQueueEvent({ type: 'started', target: 'pytorch', node: 'forge', atMs: T0 });
    const first = forecastLines().at(-1);
    expect(first).toMatch(/^forecast: done in /);
    // 2 s later: not drawn again (a new draw would say 2 s less is left).
    clock.advance(2_000);
    progress.onQueueEvent({ type: 'started', target: 'x-unplanned', node: 'forge', atMs: T0 + 2_000 });
    expect(forecastLines().at(-1)).toBe(first);
    // 5 s after the first: drawn again.
    clock.advance(3_000);
    progress.onQueueEvent({ type: 'started', target: 'y-unplanned', node: 'forge', atMs: T0 + 5_000 });
    expect(forecastLines().at(-1)).not.toBe(first);
    progress.stop();
  });
});
