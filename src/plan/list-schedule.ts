import type { PlanProblem } from './problem.js';

// Dependency-aware list scheduling: repeatedly take the ready target with the highest priority and put it on the
// node where it FINISHES soonest given its dependencies' finish times (not the least-loaded node), among the nodes
// its measured memory peak fits (`problem.fits`).

export interface ListScheduleOptions {
  /** Higher runs first among ready targets; ties by name. */
  priority: Float64Array;
  /** Costs used to decide placement (the real cost model, or build seconds alone for `build-only`). */
  placeCost?: Float64Array;
  /** Allow a target into an idle gap earlier in a node's queue (HEFT's insertion policy). */
  insertion?: boolean;
  /** Extra look at each candidate node: the worst finish of the target's children if placed there. */
  lookahead?: boolean;
  waitFor?: readonly (readonly number[])[];
}

/** A placement: which node runs each target, and a topological order whose per-node restriction is the queue. */
export interface Placement {
  order: number[];
  assign: Int32Array;
}

interface Slot {
  start: number;
  finish: number;
}

function pickReady(ready: number[], priority: Float64Array): number {
  let best = 0;
  for (let k = 1; k < ready.length; k++) {
    const a = ready[k]!;
    const b = ready[best]!;
    if (priority[a]! > priority[b]! || (priority[a] === priority[b] && a < b)) best = k;
  }
  const [j] = ready.splice(best, 1);
  return j!;
}

/** Earliest start ≥ readyAt on a node: after its last slot, or in a gap when insertion is on. */
function findStart(slots: readonly Slot[], readyAt: number, length: number, insertion: boolean): number {
  const tail = slots.length > 0 ? slots[slots.length - 1]!.finish : 0;
  if (!insertion) return Math.max(tail, readyAt);
  let previousEnd = 0;
  for (const slot of slots) {
    const start = Math.max(previousEnd, readyAt);
    if (start + length <= slot.start) return start;
    previousEnd = slot.finish;
  }
  return Math.max(previousEnd, readyAt);
}

interface PlacementState {
  problem: PlanProblem;
  cost: Float64Array;
  slots: Slot[][];
  finish: Float64Array;
  waitFor: readonly (readonly number[])[];
  insertion: boolean;
}

function readyTime(state: PlacementState, j: number): number {
  let at = 0;
  for (const d of state.waitFor[j]!) at = Math.max(at, state.finish[d]!);
  return at;
}

function finishOn(state: PlacementState, j: number, i: number): number {
  const length = state.cost[j * state.problem.m + i]!;
  return findStart(state.slots[i]!, readyTime(state, j), length, state.insertion) + length;
}

// Lookahead: place j on i tentatively, then score by the latest best-case finish of its children.
function lookaheadScore(state: PlacementState, j: number, i: number): number {
  const { problem } = state;
  const own = finishOn(state, j, i);
  const children = problem.succs[j]!;
  if (children.length === 0) return own;
  const length = state.cost[j * problem.m + i]!;
  const slot = { start: own - length, finish: own };
  const slots = state.slots[i]!;
  const saved = state.finish[j]!;
  slots.push(slot);
  slots.sort((a, b) => a.start - b.start);
  state.finish[j] = own;
  let worst = own;
  for (const k of children) {
    let best = Infinity;
    for (let node = 0; node < problem.m; node++)
      if (problem.fits[k * problem.m + node]) best = Math.min(best, finishOn(state, k, node));
    worst = Math.max(worst, best);
  }
  slots.splice(slots.indexOf(slot), 1);
  state.finish[j] = saved;
  return worst;
}

function chooseNode(state: PlacementState, j: number, lookahead: boolean): number {
  let bestNode = 0;
  let bestScore = Infinity;
  let bestFinish = Infinity;
  for (const i of state.problem.nodeOrder) {
    if (!state.problem.fits[j * state.problem.m + i]) continue;
    const finish = finishOn(state, j, i);
    const score = lookahead ? lookaheadScore(state, j, i) : finish;
    if (score < bestScore || (score === bestScore && finish < bestFinish)) {
      bestNode = i;
      bestScore = score;
      bestFinish = finish;
    }
  }
  return bestNode;
}

/** Queue order = planned start order (ties by topological position), so evaluating it reproduces the plan. */
function toPlacement(
  problem: PlanProblem,
  assign: Int32Array,
  plannedStart: Float64Array,
  listed: number[],
): Placement {
  const position = new Int32Array(problem.n);
  listed.forEach((j, index) => (position[j] = index));
  const order = [...listed].sort(
    (a, b) => plannedStart[a]! - plannedStart[b]! || position[a]! - position[b]!,
  );
  return { order, assign };
}

export function listSchedule(problem: PlanProblem, options: ListScheduleOptions): Placement {
  const {
    priority,
    placeCost = problem.cost,
    insertion = false,
    lookahead = false,
    waitFor = problem.preds,
  } = options;
  const state: PlacementState = {
    problem,
    cost: placeCost,
    slots: problem.nodes.map(() => []),
    finish: new Float64Array(problem.n),
    waitFor,
    insertion,
  };
  const assign = new Int32Array(problem.n);
  const plannedStart = new Float64Array(problem.n);
  const waiting = waitFor.map((list) => list.length);
  const ready = waiting.flatMap((count, j) => (count === 0 ? [j] : []));
  const successors = invert(waitFor, problem.n);
  const listed: number[] = [];
  while (ready.length > 0) {
    const j = pickReady(ready, priority);
    const i = chooseNode(state, j, lookahead);
    const finish = finishOn(state, j, i);
    const start = finish - placeCost[j * problem.m + i]!;
    assign[j] = i;
    plannedStart[j] = start;
    state.finish[j] = finish;
    state.slots[i]!.push({ start, finish });
    state.slots[i]!.sort((a, b) => a.start - b.start);
    listed.push(j);
    for (const k of successors[j]!) if (--waiting[k]! === 0) ready.push(k);
  }
  return toPlacement(problem, assign, plannedStart, listed);
}

/** Successor lists for an arbitrary wait-for relation. */
export function invert(waitFor: readonly (readonly number[])[], n: number): number[][] {
  const out = Array.from({ length: n }, () => [] as number[]);
  waitFor.forEach((list, j) => {
    for (const d of list) out[d]!.push(j);
  });
  return out;
}
