import { createTiming, evaluateOrder, findCriticalChain, type Timing } from './evaluate-order.js';
import type { Placement } from './list-schedule.js';
import type { PlanProblem } from './problem.js';
import { createRandom, type Random } from '../shared/random.js';

// Iterated local search on (queue order, node assignment). Moves touch the critical chain only: reassign a
// critical target (keeping or advancing its queue position), pull it ahead in its own queue, or swap its node with
// another target's; never onto a node its memory peak does not fit. Score = (makespan, sum of finishes). The budget is counted in evaluations, not wall time, so
// the result is deterministic for a given seed.

export interface ImproveOptions {
  start: Placement;
  maxEvaluations: number;
  seed: number;
  /** Stop as soon as the makespan reaches this (a lower bound): nothing can beat it. */
  stopAtSeconds?: number;
}

interface Score {
  makespan: number;
  total: number;
}

interface SearchState {
  problem: PlanProblem;
  order: number[];
  pos: Int32Array;
  assign: Int32Array;
  timing: Timing;
  score: Score;
  evaluations: number;
  maxEvaluations: number;
  stopAtSeconds: number;
  random: Random;
}

const TOLERANCE = 1e-9;

function isBetter(a: Score, b: Score): boolean {
  const scale = Math.max(1, b.makespan) * TOLERANCE;
  if (a.makespan < b.makespan - scale) return true;
  return a.makespan <= b.makespan + scale && a.total < b.total - scale;
}

function evaluate(state: SearchState): Score {
  state.evaluations++;
  const makespan = evaluateOrder(state.problem, {
    order: state.order,
    assign: state.assign,
    timing: state.timing,
  });
  if (makespan <= state.stopAtSeconds) state.maxEvaluations = state.evaluations;
  let total = 0;
  for (const f of state.timing.finish) total += f;
  return { makespan, total };
}

function moveInOrder(state: SearchState, j: number, to: number): void {
  const from = state.pos[j]!;
  if (from === to) return;
  state.order.splice(from, 1);
  state.order.splice(to, 0, j);
  const [low, high] = from < to ? [from, to] : [to, from];
  for (let q = low; q <= high; q++) state.pos[state.order[q]!] = q;
}

/** Earliest queue position j may take: just after its last dependency. */
function earliestPosition(state: SearchState, j: number): number {
  let at = 0;
  for (const d of state.problem.preds[j]!) at = Math.max(at, state.pos[d]! + 1);
  return at;
}

/** Try a change; keep it if the score improves, undo it otherwise. */
function attempt(state: SearchState, apply: () => void, undo: () => void): boolean {
  apply();
  const score = evaluate(state);
  if (isBetter(score, state.score)) {
    state.score = score;
    return true;
  }
  undo();
  return false;
}

function tryReassign(state: SearchState, j: number): boolean {
  const home = state.assign[j]!;
  const from = state.pos[j]!;
  const early = earliestPosition(state, j);
  const { fits, m } = state.problem;
  for (const i of state.problem.nodeOrder) {
    if (i === home || !fits[j * m + i]) continue;
    if (state.evaluations >= state.maxEvaluations) return false;
    const set = (node: number) => () => void (state.assign[j] = node);
    if (attempt(state, set(i), set(home))) return true;
    if (early < from) {
      const apply = () => ((state.assign[j] = i), moveInOrder(state, j, early));
      const undo = () => ((state.assign[j] = home), moveInOrder(state, j, from));
      if (attempt(state, apply, undo)) return true;
    }
  }
  return false;
}

function previousOnNode(state: SearchState, j: number): number {
  for (let q = state.pos[j]! - 1; q >= 0; q--)
    if (state.assign[state.order[q]!] === state.assign[j]) return state.order[q]!;
  return -1;
}

function tryAdvance(state: SearchState, j: number): boolean {
  const previous = previousOnNode(state, j);
  if (previous < 0) return false;
  const to = state.pos[previous]!;
  const from = state.pos[j]!;
  if (earliestPosition(state, j) > to) return false;
  return attempt(
    state,
    () => moveInOrder(state, j, to),
    () => moveInOrder(state, j, from),
  );
}

function trySwap(state: SearchState, j: number, samples: number): boolean {
  for (let s = 0; s < samples && state.evaluations < state.maxEvaluations; s++) {
    const k = state.random.int(state.problem.n);
    const a = state.assign[j]!;
    const b = state.assign[k]!;
    const { fits, m } = state.problem;
    if (a === b || !fits[j * m + b] || !fits[k * m + a]) continue;
    const apply = () => ((state.assign[j] = b), (state.assign[k] = a));
    const undo = () => ((state.assign[j] = a), (state.assign[k] = b));
    if (attempt(state, apply, undo)) return true;
  }
  return false;
}

function improveOnce(state: SearchState): boolean {
  evaluate(state);
  const chain = findCriticalChain(state.problem, state.timing);
  for (let c = chain.length - 1; c >= 0; c--) {
    const j = chain[c]!;
    if (state.evaluations >= state.maxEvaluations) return false;
    if (tryReassign(state, j) || tryAdvance(state, j) || trySwap(state, j, 4)) return true;
  }
  return false;
}

function descend(state: SearchState): void {
  while (state.evaluations < state.maxEvaluations && improveOnce(state));
}

function perturb(state: SearchState): void {
  const moves = 1 + state.random.int(3);
  for (let r = 0; r < moves; r++) {
    const j = state.random.int(state.problem.n);
    const i = state.random.int(state.problem.m);
    if (state.problem.fits[j * state.problem.m + i]) state.assign[j] = i;
  }
  state.score = evaluate(state);
}

export function improvePlacement(
  problem: PlanProblem,
  { start, maxEvaluations, seed, stopAtSeconds = 0 }: ImproveOptions,
): Placement {
  const state: SearchState = {
    problem,
    order: [...start.order],
    pos: new Int32Array(problem.n),
    assign: Int32Array.from(start.assign),
    timing: createTiming(problem.n),
    score: { makespan: Infinity, total: Infinity },
    evaluations: 0,
    maxEvaluations,
    stopAtSeconds: stopAtSeconds * (1 + 1e-9),
    random: createRandom(seed),
  };
  state.order.forEach((j, q) => (state.pos[j] = q));
  state.score = evaluate(state);
  descend(state);
  let best = { order: [...state.order], assign: Int32Array.from(state.assign), score: state.score };
  while (state.evaluations < state.maxEvaluations && problem.m > 1) {
    perturb(state);
    descend(state);
    if (!isBetter(best.score, state.score))
      best = { order: [...state.order], assign: Int32Array.from(state.assign), score: state.score };
    else {
      state.order = [...best.order];
      state.order.forEach((j, q) => (state.pos[j] = q));
      state.assign = Int32Array.from(best.assign);
      state.score = best.score;
    }
  }
  return { order: best.order, assign: best.assign };
}
