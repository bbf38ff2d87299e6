import type { PlanProblem } from './problem.js';

// The cost model's semantics in one pass: each node runs its queue serially; a target starts when its node is
// free and everything it waits for has finished. `order` is a topological order whose restriction to each node
// is that node's queue, so one sweep computes every start and finish. The one replay of fixed queues: planning,
// `simulatePlan` and the diff's counterfactuals (with a node's first start and a target's start lag) all run it.

export interface Timing {
  start: Float64Array;
  finish: Float64Array;
  /** The target before j in j's node queue, or -1. */
  prevOnNode: Int32Array;
}

export interface EvaluateOptions {
  order: readonly number[];
  assign: Int32Array;
  timing: Timing;
  /** What each target waits for; defaults to its dependencies (stage barriers add more). */
  waitFor?: readonly (readonly number[])[];
  /** Duration matrix, target-major; defaults to the problem's cost. */
  duration?: Float64Array;
  /** Per node, when it can start its first target; default 0. */
  nodeReadyAt?: ArrayLike<number>;
  /** Per target, seconds between when it could start and when it starts; default 0. */
  startLag?: ArrayLike<number>;
}

/** What a replay needs of a problem: its node count, and the defaults for waits and durations. */
export interface OrderProblem {
  m: PlanProblem['m'];
  preds: readonly (readonly number[])[];
  cost: PlanProblem['cost'];
}

export function createTiming(n: number): Timing {
  return { start: new Float64Array(n), finish: new Float64Array(n), prevOnNode: new Int32Array(n) };
}

/** Returns the makespan; fills `timing`. */
export function evaluateOrder(problem: OrderProblem, options: EvaluateOptions): number {
  const { order, assign, timing, waitFor = problem.preds, duration = problem.cost, startLag } = options;
  const m = problem.m;
  const free = options.nodeReadyAt ? Float64Array.from(options.nodeReadyAt) : new Float64Array(m);
  const last = new Int32Array(m).fill(-1);
  const { start, finish, prevOnNode } = timing;
  let makespan = 0;
  for (const j of order) {
    const i = assign[j]!;
    let s = free[i]!;
    for (const d of waitFor[j]!) if (finish[d]! > s) s = finish[d]!;
    if (startLag) s += startLag[j]!;
    const f = s + duration[j * m + i]!;
    start[j] = s;
    finish[j] = f;
    prevOnNode[j] = last[i]!;
    last[i] = j;
    free[i] = f;
    if (f > makespan) makespan = f;
  }
  return makespan;
}

const EPSILON = 1e-9;

/** The chain of targets that determines the makespan, first to last: each one waited for the one before it. */
export function findCriticalChain(
  problem: PlanProblem,
  timing: Timing,
  waitFor: readonly (readonly number[])[] = problem.preds,
): number[] {
  let current = -1;
  let latest = -Infinity;
  for (let j = 0; j < problem.n; j++) {
    if (timing.finish[j]! > latest + EPSILON) {
      latest = timing.finish[j]!;
      current = j;
    }
  }
  const chain: number[] = [];
  while (current >= 0) {
    chain.push(current);
    const startAt = timing.start[current]!;
    if (startAt <= EPSILON) break;
    let next = -1;
    for (const d of waitFor[current]!) {
      if (Math.abs(timing.finish[d]! - startAt) <= EPSILON * Math.max(1, startAt) && (next < 0 || d < next))
        next = d;
    }
    if (next < 0) next = timing.prevOnNode[current]!;
    current = next;
  }
  return chain.reverse();
}
