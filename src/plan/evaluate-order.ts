import type { PlanProblem } from './problem.js';

// The cost model's semantics in one pass: each node runs its queue serially; a target starts when its node is
// free and everything it waits for has finished. `order` is a topological order whose restriction to each node
// is that node's queue, so one sweep computes every start and finish.

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
}

export function createTiming(n: number): Timing {
  return { start: new Float64Array(n), finish: new Float64Array(n), prevOnNode: new Int32Array(n) };
}

/** Returns the makespan; fills `timing`. */
export function evaluateOrder(problem: PlanProblem, options: EvaluateOptions): number {
  const { order, assign, timing, waitFor = problem.preds, duration = problem.cost } = options;
  const m = problem.m;
  const free = new Float64Array(m);
  const last = new Int32Array(m).fill(-1);
  const { start, finish, prevOnNode } = timing;
  let makespan = 0;
  for (const j of order) {
    const i = assign[j]!;
    let s = free[i]!;
    for (const d of waitFor[j]!) if (finish[d]! > s) s = finish[d]!;
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
