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
  const count = slots.length;
  const tail = count > 0 ? slots[count - 1]!.finish : 0;
  if (!insertion) return Math.max(tail, readyAt);
  // A gap before slot p needs start + length ≤ slots[p].start with start ≥ readyAt, so no slot that starts before
  // readyAt + length can have one: skip them by bisection (slots are sorted by start), then scan as before.
  const earliestEnd = readyAt + length;
  let [low, high] = [0, count];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (slots[mid]!.start < earliestEnd) low = mid + 1;
    else high = mid;
  }
  let previousEnd = low > 0 ? slots[low - 1]!.finish : 0;
  for (let p = low; p < count; p++) {
    const slot = slots[p]!;
    const start = Math.max(previousEnd, readyAt);
    if (start + length <= slot.start) return start;
    previousEnd = slot.finish;
  }
  return Math.max(previousEnd, readyAt);
}

/** Where a slot goes in a node's slots (sorted by start): after every slot that starts no later, as a stable sort puts it. */
function findSlotIndex(slots: readonly Slot[], start: number): number {
  let [low, high] = [0, slots.length];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (slots[mid]!.start <= start) low = mid + 1;
    else high = mid;
  }
  return low;
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

function finishAt(state: PlacementState, j: number, i: number, readyAt: number): number {
  const length = state.cost[j * state.problem.m + i]!;
  return findStart(state.slots[i]!, readyAt, length, state.insertion) + length;
}

function finishOn(state: PlacementState, j: number, i: number): number {
  return finishAt(state, j, i, readyTime(state, j));
}

/**
 * Lookahead: place j on i tentatively (finishing at `own`), then score by the latest best-case finish of its
 * children. The score only grows as children are scored, so once it passes `cutoff` (the best score so far) the node
 * has lost and the rest is not scored: any value above the cutoff gives the same choice.
 */
function lookaheadScore(state: PlacementState, j: number, i: number, own: number, cutoff: number): number {
  const { problem } = state;
  const children = problem.succs[j]!;
  if (children.length === 0) return own;
  const length = state.cost[j * problem.m + i]!;
  const slot = { start: own - length, finish: own };
  const slots = state.slots[i]!;
  const saved = state.finish[j]!;
  const at = findSlotIndex(slots, slot.start);
  slots.splice(at, 0, slot);
  state.finish[j] = own;
  let worst = own;
  for (const k of children) {
    const readyAt = readyTime(state, k);
    let best = Infinity;
    for (let node = 0; node < problem.m; node++)
      if (problem.fits[k * problem.m + node]) best = Math.min(best, finishAt(state, k, node, readyAt));
    worst = Math.max(worst, best);
    if (worst > cutoff) break;
  }
  slots.splice(at, 1);
  state.finish[j] = saved;
  return worst;
}

function chooseNode(state: PlacementState, j: number, lookahead: boolean): number {
  let bestNode = 0;
  let bestScore = Infinity;
  let bestFinish = Infinity;
  const readyAt = readyTime(state, j);
  for (const i of state.problem.nodeOrder) {
    if (!state.problem.fits[j * state.problem.m + i]) continue;
    const finish = finishAt(state, j, i, readyAt);
    // A score is never below the node's own finish: a node whose finish already loses is not looked ahead from.
    const score = !lookahead || finish > bestScore ? finish : lookaheadScore(state, j, i, finish, bestScore);
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
    const slots = state.slots[i]!;
    slots.splice(findSlotIndex(slots, start), 0, { start, finish });
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
