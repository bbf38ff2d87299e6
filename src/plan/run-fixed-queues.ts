import type { DispatchGuide, DispatchState } from './dispatch-guide.js';
import type { DispatchStart } from './simulate-dispatch.js';

// Fixed queues in one sweep. Under the `fixed` policy each node runs its planned queue in order, so a target
// starts as soon as its node is free and everything it waits for has finished: start = max(now, the node's free
// time, its waits' finishes). Visiting the targets in the guide's sweep order (waits and queue predecessors first)
// computes every start and finish in one pass, O(targets + waits), instead of the event loop of `runDispatch`,
// which rescans queues and lists at every event (O(targets²) a draw). The result is the event loop's, to the bit:
// test/unit/plan/run-fixed-queues.test.ts holds the two equal on random plans, with and without a run in progress.

/** Per target, the node whose queue holds it; built once per guide. */
export interface FixedQueues {
  queueNode: Int32Array;
}

/**
 * The node queue of every target, or undefined when some target is in no queue or in two (the event loop then
 * decides: it stalls or races, and the sweep must not guess).
 */
export function createFixedQueues(guide: DispatchGuide): FixedQueues | undefined {
  const queueNode = new Int32Array(guide.problem.n).fill(-1);
  for (const [i, queue] of guide.queues.entries())
    for (const j of queue) {
      if (queueNode[j] !== -1) return undefined;
      queueNode[j] = i;
    }
  return queueNode.includes(-1) ? undefined : { queueNode };
}

/** The node target j runs on in a sweep: the one it started on, else its queue's. */
export function toFixedNode(fixed: FixedQueues, from: DispatchStart | undefined, j: number): number {
  const started = from ? from.node[j]! : -1;
  return started >= 0 ? started : fixed.queueNode[j]!;
}

export interface RunFixedQueuesOptions {
  fixed: FixedQueues;
  /** Actual durations, target-major (j·m + i); only each target's own node (`toFixedNode`) is read. */
  duration: Float64Array;
  from?: DispatchStart | undefined;
  /** Scratch state to fill (reused across draws); its arrays must hold `n` targets. */
  into: DispatchState;
  /** Scratch: per node, when it is next free (`m` long). */
  free: Float64Array;
}

/** `runDispatch(guide, { policy: 'fixed', duration, from })`, in one sweep; fills and returns `into`. */
export function runFixedQueues(guide: DispatchGuide, options: RunFixedQueuesOptions): DispatchState {
  const { problem, order } = guide;
  const { m, preds } = problem;
  const { fixed, duration, from, into: state, free } = options;
  const now = from ? from.nowSeconds : 0;
  state.nowSeconds = now;
  free.fill(now);
  state.node.fill(-1);
  state.finish.fill(NaN);
  if (from) {
    // As runDispatch's start: a running target holds its node until max(now, start + duration); two running on
    // one node both end when the later-listed one does.
    const busy = free.fill(NaN);
    for (let j = 0; j < problem.n; j++) {
      const i = from.node[j]!;
      if (i < 0) continue;
      state.node[j] = i;
      state.start[j] = from.start[j]!;
      if (!Number.isNaN(from.finish[j]!)) state.finish[j] = from.finish[j]!;
      else busy[i] = Math.max(now, from.start[j]! + duration[j * m + i]!);
    }
    for (let j = 0; j < problem.n; j++) {
      const i = from.node[j]!;
      if (i >= 0 && Number.isNaN(from.finish[j]!)) state.finish[j] = busy[i]!;
    }
    for (let i = 0; i < m; i++) if (Number.isNaN(busy[i]!)) busy[i] = now;
  }
  for (const j of order) {
    if (state.node[j]! >= 0) continue;
    const i = fixed.queueNode[j]!;
    let at = free[i]!;
    for (const d of preds[j]!) if (state.finish[d]! > at) at = state.finish[d]!;
    state.node[j] = i;
    state.start[j] = at;
    state.finish[j] = at + duration[j * m + i]!;
    free[i] = state.finish[j]!;
  }
  return state;
}
