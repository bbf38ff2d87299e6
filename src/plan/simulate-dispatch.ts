import { InternalError } from '../shared/errors.js';
import {
  type DispatchState,
  chooseFixedIndex,
  chooseGreedyIndex,
  chooseGuidedIndex,
  createDispatchGuide,
  createDispatchState,
  type DispatchGuide,
  type DispatchPlan,
  type GuidedTuning,
} from './dispatch-guide.js';
import type { CostInput } from './problem.js';
import { toNoisyDurations, type DurationNoise, type TargetTiming } from './simulate-plan.js';

// An event-driven simulator of dispatch policies over a plan, under (optionally noisy) durations the policy does
// not know: it sees only the expected costs and what has started and finished.
// - fixed:  each node runs its planned queue in order (what `simulatePlan` computes);
// - guided: plan-guided dynamic dispatch (`chooseGuidedTarget`);
// - greedy: an idle node takes the highest-ranked ready target, wherever it was planned (a reference).
// Whenever a target finishes, every idle node is asked again, in node-name order.

/** @internal */
export type DispatchPolicy = 'fixed' | 'guided' | 'greedy';

interface SimulateDispatchOptions extends GuidedTuning {
  policy: DispatchPolicy;
  plan: DispatchPlan;
  /** Expected costs; default: the ones the plan implies. The fleet is the plan's `nodes`. */
  costs?: ReadonlyMap<string, CostInput>;
  durationNoise?: DurationNoise;
  /** Reuse a guide across draws (same plan and costs). */
  guide?: DispatchGuide;
}

/** A run in progress, in the guide's indices: where the simulation starts instead of at time 0 with nothing done. */
export interface DispatchStart {
  nowSeconds: number;
  /** Per target, the node it started on, or -1. */
  node: Int32Array;
  start: Float64Array;
  /** Finish of finished targets; NaN while running or not started. */
  finish: Float64Array;
}

export interface RunDispatchOptions extends GuidedTuning {
  policy: DispatchPolicy;
  /** Actual durations, target-major (target j on node i at j·m + i), unknown to the policy. */
  duration: Float64Array;
  /** Continue a run in progress; a running target ends at max(now, its start + its duration). */
  from?: DispatchStart;
}

interface DispatchSimulation {
  makespanSeconds: number;
  targets: Record<string, TargetTiming>;
  /** Targets that ran on another node than the plan's. */
  movedTargets: string[];
}

function choose(
  guide: DispatchGuide,
  options: Pick<RunDispatchOptions, 'policy' | 'slackSeconds' | 'stealFactor'>,
  state: ReturnType<typeof createDispatchState>,
  idle: number,
  ready: number[],
): number | null {
  switch (options.policy) {
    case 'fixed':
      return chooseFixedIndex(guide, state, { idle, ready });
    case 'greedy':
      return chooseGreedyIndex(guide, { idle, ready });
    case 'guided':
      return (
        chooseGuidedIndex(guide, state, {
          idle,
          ready,
          slackSeconds: options.slackSeconds,
          stealFactor: options.stealFactor,
        })?.j ?? null
      );
  }
}

/** @internal */
export function simulateDispatch(options: SimulateDispatchOptions): DispatchSimulation {
  const guide = options.guide ?? createDispatchGuide(options.plan, options.costs);
  const { problem } = guide;
  const duration = options.durationNoise ? toNoisyDurations(problem, options.durationNoise) : problem.cost;
  return toResult(guide, runDispatch(guide, { ...options, duration }));
}

function toStartState(guide: DispatchGuide, options: RunDispatchOptions) {
  const { problem } = guide;
  const state = createDispatchState(problem.n);
  const busyUntil = new Float64Array(problem.m).fill(NaN);
  const running: number[] = [];
  const done = new Uint8Array(problem.n);
  const from = options.from;
  if (from) {
    state.nowSeconds = from.nowSeconds;
    for (let j = 0; j < problem.n; j++) {
      const i = from.node[j]!;
      if (i < 0) continue;
      [state.node[j], state.start[j]] = [i, from.start[j]!];
      if (!Number.isNaN(from.finish[j]!)) [state.finish[j], done[j]] = [from.finish[j]!, 1];
      else {
        busyUntil[i] = Math.max(from.nowSeconds, from.start[j]! + options.duration[j * problem.m + i]!);
        running.push(j);
      }
    }
  }
  return { state, busyUntil, running, done };
}

/** The indexed core: dispatch every target under `policy` with the given durations; returns the final state. */
export function runDispatch(guide: DispatchGuide, options: RunDispatchOptions): DispatchState {
  const { problem } = guide;
  const { duration } = options;
  const bad = duration.findIndex((seconds) => !(seconds >= 0 && seconds < Infinity));
  if (bad >= 0)
    throw new InternalError(
      `dispatch: target ${problem.names[Math.floor(bad / problem.m)]} has duration ${duration[bad]} on node ${problem.nodes[bad % problem.m]!.name}`,
    );
  const { state, busyUntil, running, done } = toStartState(guide, options);
  const waiting = Int32Array.from(problem.preds, (list) =>
    list.reduce((sum, d) => sum + (done[d] ? 0 : 1), 0),
  );
  const ready: number[] = [];
  waiting.forEach((count, j) => count === 0 && state.node[j]! < 0 && ready.push(j));
  let left = problem.n - done.reduce((sum, flag) => sum + flag, 0);
  while (left > 0) {
    for (let changed = true; changed;) {
      changed = false;
      for (const i of problem.nodeOrder) {
        if (!Number.isNaN(busyUntil[i]!) || ready.length === 0) continue;
        const j = choose(guide, options, state, i, ready);
        if (j === null) continue;
        ready.splice(ready.indexOf(j), 1);
        [state.node[j], state.start[j], busyUntil[i]] = [
          i,
          state.nowSeconds,
          state.nowSeconds + duration[j * problem.m + i]!,
        ];
        running.push(j);
        changed = true;
      }
    }
    if (running.length === 0)
      throw new InternalError(
        `dispatch stalled at ${state.nowSeconds} s with ${left} targets left (policy ${options.policy})`,
      );
    let next = Infinity;
    for (const j of running) next = Math.min(next, busyUntil[state.node[j]!]!);
    state.nowSeconds = next;
    for (const j of running.filter((k) => busyUntil[state.node[k]!]! <= next)) {
      running.splice(running.indexOf(j), 1);
      [state.finish[j], busyUntil[state.node[j]!]] = [next, NaN];
      left -= 1;
      for (const k of problem.succs[j]!) if (--waiting[k]! === 0) ready.push(k);
    }
  }
  return state;
}

function toResult(guide: DispatchGuide, state: ReturnType<typeof createDispatchState>): DispatchSimulation {
  const { problem } = guide;
  const targets: Record<string, TargetTiming> = {};
  const movedTargets: string[] = [];
  let makespanSeconds = 0;
  problem.names.forEach((name, j) => {
    targets[name] = {
      node: problem.nodes[state.node[j]!]!.name,
      startSeconds: state.start[j]!,
      finishSeconds: state.finish[j]!,
    };
    if (state.node[j] !== guide.plannedNode[j]) movedTargets.push(name);
    makespanSeconds = Math.max(makespanSeconds, state.finish[j]!);
  });
  return { makespanSeconds, targets, movedTargets };
}
