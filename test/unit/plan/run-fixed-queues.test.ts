import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPlan, forecastMakespan, type CostDistribution } from '../../../src/plan/index.js';
import { createDispatchGuide, createDispatchState } from '../../../src/plan/dispatch-guide.js';
import { createFixedQueues, runFixedQueues } from '../../../src/plan/run-fixed-queues.js';
import { runDispatch, type DispatchStart } from '../../../src/plan/simulate-dispatch.js';
import { createRandom, type Random } from '../../../src/shared/random.js';
import { instanceArbitrary, type PlanInstance } from './random-instance.js';

// The sweep of fixed queues against the event loop (runDispatch), and the whole fast forecast against a
// straightforward Monte Carlo written here: every draw's durations on every node, a plain event simulation of the
// queues, all draws, sorted, type-7 quantiles.

function planOf(instance: PlanInstance) {
  return createPlan({ ...instance, arch: 'gfx1201', createdAt: '2026-12-06T00:00:00Z' });
}

function randomDurations(n: number, m: number, seed: number): Float64Array {
  const random = createRandom(seed);
  return Float64Array.from({ length: n * m }, () => (random.next() < 0.1 ? 0 : random.next() * 1000));
}

/** A run in progress at `nowSeconds`, cut from a complete simulated run: what started by then, and what finished. */
function cutAt(full: ReturnType<typeof runDispatch>, nowSeconds: number): DispatchStart {
  const n = full.node.length;
  const from: DispatchStart = {
    nowSeconds,
    node: new Int32Array(n).fill(-1),
    start: new Float64Array(n),
    finish: new Float64Array(n).fill(NaN),
  };
  for (let j = 0; j < n; j++) {
    if (full.start[j]! > nowSeconds) continue;
    [from.node[j], from.start[j]] = [full.node[j]!, full.start[j]!];
    if (full.finish[j]! <= nowSeconds) from.finish[j] = full.finish[j]!;
  }
  return from;
}

describe('runFixedQueues', () => {
  it('gives the event loop’s every start, finish and node, to the bit, from the start or from a run in progress', () => {
    fc.assert(
      fc.property(
        instanceArbitrary,
        fc.nat(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (instance, seed, cut) => {
          const plan = planOf(instance);
          const guide = createDispatchGuide(plan, instance.costs);
          const { n, m } = guide.problem;
          const fixed = createFixedQueues(guide)!;
          expect(fixed).toBeDefined();
          const duration = randomDurations(n, m, seed);
          const scratch = { into: createDispatchState(n), free: new Float64Array(m) };
          const slow = runDispatch(guide, { policy: 'fixed', duration });
          const fast = runFixedQueues(guide, { fixed, duration, ...scratch });
          expect([...fast.node]).toEqual([...slow.node]);
          expect([...fast.start]).toEqual([...slow.start]);
          expect([...fast.finish]).toEqual([...slow.finish]);
          // Live: cut the run somewhere and redraw what has not finished.
          const makespan = Math.max(...slow.finish);
          const from = cutAt(slow, cut * makespan);
          const later = randomDurations(n, m, seed + 1);
          const slowLive = runDispatch(guide, { policy: 'fixed', duration: later, from });
          const fastLive = runFixedQueues(guide, { fixed, duration: later, from, ...scratch });
          expect([...fastLive.node]).toEqual([...slowLive.node]);
          expect([...fastLive.start]).toEqual([...slowLive.start]);
          expect([...fastLive.finish]).toEqual([...slowLive.finish]);
        },
      ),
      { numRuns: 80, seed: 36 },
    );
  });
});

// --- The reference Monte Carlo: the formulas of docs/forecast.md, written out plainly. ---

function referenceFigure(random: Random, median: number, sigma: number, runs: number): number {
  const z = Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
  const scale = runs < 2 ? 0.25 : sigma * Math.sqrt(1 + Math.PI / (2 * runs));
  const limit = Math.log(20);
  return median * Math.exp(Math.max(-limit, Math.min(limit, scale * z)));
}

/** Fixed queues, simulated event by event: at each step, every node whose head is ready starts it. */
function referenceMakespan(
  plan: ReturnType<typeof createPlan>,
  seconds: (target: string, node: string) => number,
): { makespan: number; finish: Map<string, number> } {
  const finish = new Map<string, number>();
  const heads = new Map(Object.entries(plan.queues).map(([node, queue]) => [node, [...queue]]));
  const freeAt = new Map(Object.keys(plan.queues).map((node) => [node, 0]));
  let now = 0;
  for (;;) {
    for (let started = true; started;) {
      started = false;
      for (const [node, queue] of heads) {
        const head = queue[0];
        if (head === undefined || freeAt.get(node)! > now) continue;
        const waits = plan.targets[head]!.waitFor;
        if (!waits.every((d) => (finish.get(d) ?? Infinity) <= now)) continue;
        queue.shift();
        finish.set(head, now + seconds(head, node));
        freeAt.set(node, finish.get(head)!);
        started = true;
      }
    }
    const pending = [...finish.values()].filter((t) => t > now);
    if (pending.length === 0) break;
    now = Math.min(...pending);
  }
  return { makespan: Math.max(...finish.values()), finish };
}

function referenceQuantile(sorted: number[], q: number): number {
  const at = q * (sorted.length - 1);
  const low = Math.floor(at);
  const high = Math.min(sorted.length - 1, low + 1);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

describe('the forecast under fixed queues', () => {
  it('draws what a plain Monte Carlo draws: the same makespans and finishes, draw for draw', () => {
    fc.assert(
      fc.property(instanceArbitrary, fc.integer({ min: 1, max: 1e6 }), (instance, seed) => {
        const plan = planOf(instance);
        const spread = createRandom(seed);
        const distributions = new Map<string, CostDistribution>(
          [...instance.costs].map(([name, cost]) => [
            name,
            {
              buildSeconds: cost.buildSeconds ?? 0,
              buildSigma: spread.next() * 0.4,
              buildRuns: 1 + spread.int(6),
              cacheBytes: cost.cacheBytes ?? 0,
              cacheSigma: spread.next() * 0.4,
              cacheRuns: 1 + spread.int(6),
              setupSeconds: spread.next() * 30,
              setupSigma: 0.1,
              setupRuns: 3,
            },
          ]),
        );
        const draws = 60;
        const fast = forecastMakespan({ plan, distributions, draws, minDraws: draws, seed });
        const random = createRandom(seed);
        const names = Object.keys(plan.targets).sort();
        const makespans: number[] = [];
        const finishes = new Map(names.map((name) => [name, [] as number[]]));
        for (let d = 0; d < draws; d++) {
          const drawn = new Map(
            names.map((name) => {
              const f = distributions.get(name)!;
              const build = referenceFigure(random, f.buildSeconds, f.buildSigma, f.buildRuns);
              const bytes = referenceFigure(random, f.cacheBytes, f.cacheSigma, f.cacheRuns);
              const setup = referenceFigure(random, f.setupSeconds!, f.setupSigma!, f.setupRuns!);
              return [name, { build, bytes, setup }];
            }),
          );
          const node = (name: string) => plan.nodes.find((one) => one.name === name)!;
          const run = referenceMakespan(plan, (target, at) => {
            const { build, bytes, setup } = drawn.get(target)!;
            return build / node(at).speed + bytes / (node(at).linkMbps * 1e6) + setup;
          });
          makespans.push(run.makespan);
          for (const name of names) finishes.get(name)!.push(run.finish.get(name)!);
        }
        makespans.sort((a, b) => a - b);
        expect(fast.draws).toBe(draws);
        for (const [k, q] of [0, 0.1, 0.5, 0.9, 1].entries())
          expect(fast.quantiles[[0, 10, 50, 90, 100][k]!]).toBeCloseTo(referenceQuantile(makespans, q), 6);
        for (const name of names) {
          const sorted = finishes.get(name)!.sort((a, b) => a - b);
          expect(fast.targets[name]!.finish.p50).toBeCloseTo(referenceQuantile(sorted, 0.5), 6);
          expect(fast.targets[name]!.finish.p90).toBeCloseTo(referenceQuantile(sorted, 0.9), 6);
        }
      }),
      { numRuns: 40, seed: 36 },
    );
  });

  it('stops once the quantiles have settled, between the minimum and the maximum, the same way for a seed', () => {
    const instance = fc.sample(instanceArbitrary, { numRuns: 1, seed: 7 })[0]!;
    const plan = planOf(instance);
    const distributions = new Map<string, CostDistribution>(
      [...instance.costs].map(([name, cost]) => [
        name,
        {
          buildSeconds: (cost.buildSeconds ?? 0) + 1,
          buildSigma: 0.1,
          buildRuns: 5,
          cacheBytes: cost.cacheBytes ?? 0,
          cacheSigma: 0.1,
          cacheRuns: 5,
        },
      ]),
    );
    const first = forecastMakespan({ plan, distributions, draws: 20_000 });
    const again = forecastMakespan({ plan, distributions, draws: 20_000 });
    expect(first.draws).toBeGreaterThanOrEqual(500);
    expect(first.draws).toBeLessThan(20_000);
    expect(first.draws % 250).toBe(0);
    expect(again).toEqual(first);
    // The settled band is the one a fixed 20,000 draws gives, within twice the rule’s tolerance (1 % of the p50 either side).
    const full = forecastMakespan({ plan, distributions, draws: 20_000, minDraws: 20_000 });
    for (const q of ['p10', 'p50', 'p90'] as const)
      expect(Math.abs(first.makespan[q] - full.makespan[q])).toBeLessThanOrEqual(0.02 * full.makespan.p50);
    // A tiny maximum is a fixed count.
    expect(forecastMakespan({ plan, distributions, draws: 40 }).draws).toBe(40);
  });
});
