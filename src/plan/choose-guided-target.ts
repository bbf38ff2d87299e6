import { UsageError } from '../shared/errors.js';
import {
  chooseGuidedIndex,
  createDispatchGuide,
  createDispatchState,
  type DispatchGuide,
  type DispatchPlan,
  type GuidedReason,
  type GuidedTuning,
} from './dispatch-guide.js';
import type { CostInput } from './problem.js';

// Plan-guided dynamic dispatch, the policy a harness calls (`--dispatch guided`). Contract in docs/planning.md:
// call it for every idle node (in node-name order) whenever a target starts or settles; it returns the target
// to start now or `null` to wait for the next event. Pure and deterministic; the guide derived from a plan is
// cached per plan object.

export interface StartedTarget {
  node: string;
  startSeconds: number;
  /** Present once the target has settled. */
  finishSeconds?: number;
}

export interface ChooseGuidedTargetOptions extends GuidedTuning {
  idleNode: string;
  /** Targets not started whose waits (plan `waitFor`) have all finished ok. */
  readyTargets: readonly string[];
  plan: DispatchPlan;
  /** Seconds since the measured run started (the plan's time axis). */
  nowSeconds: number;
  /** Expected costs; default: the ones the plan implies (its build and export terms). */
  costs?: ReadonlyMap<string, CostInput>;
  /** Every target started so far, running or settled (ok or failed). */
  started?: Readonly<Record<string, StartedTarget>>;
  /** Targets that will never run (a dependency failed, or the run is stopping): no node waits for them. */
  skippedTargets?: readonly string[];
}

export type GuidedChoice = { target: string; reason: GuidedReason } | { target: null; reason: 'wait' };

const guides = new WeakMap<
  DispatchPlan,
  { costs: ReadonlyMap<string, CostInput> | undefined; guide: DispatchGuide }
>();

function getGuide(plan: DispatchPlan, costs: ReadonlyMap<string, CostInput> | undefined): DispatchGuide {
  const cached = guides.get(plan);
  if (cached && cached.costs === costs) return cached.guide;
  const guide = createDispatchGuide(plan, costs);
  guides.set(plan, { costs, guide });
  return guide;
}

function toIndex(guide: DispatchGuide, name: string, what: string): number {
  const j = guide.problem.names.indexOf(name);
  if (j < 0)
    throw new UsageError(`guided dispatch: ${what} \`${name}\` is not in the plan`, {
      hint: 'dispatch the plan the run was started with',
    });
  return j;
}

export function chooseGuidedTarget(options: ChooseGuidedTargetOptions): GuidedChoice {
  const guide = getGuide(options.plan, options.costs);
  const { problem } = guide;
  const idle = problem.nodes.findIndex((node) => node.name === options.idleNode);
  if (idle < 0)
    throw new UsageError(
      `guided dispatch: node \`${options.idleNode}\` is not in the plan (nodes: ${problem.nodes.map((node) => node.name).join(', ')})`,
    );
  const state = createDispatchState(problem.n);
  state.nowSeconds = options.nowSeconds;
  for (const [name, started] of Object.entries(options.started ?? {})) {
    const j = toIndex(guide, name, 'started target');
    const i = problem.nodes.findIndex((node) => node.name === started.node);
    if (i < 0)
      throw new UsageError(
        `guided dispatch: started target \`${name}\` ran on \`${started.node}\`, which is not in the plan`,
      );
    [state.node[j], state.start[j], state.finish[j]] = [
      i,
      started.startSeconds,
      started.finishSeconds ?? NaN,
    ];
  }
  for (const name of options.skippedTargets ?? []) {
    const j = toIndex(guide, name, 'skipped target');
    if (state.node[j]! < 0)
      [state.node[j], state.start[j], state.finish[j]] = [
        guide.plannedNode[j]!,
        options.nowSeconds,
        options.nowSeconds,
      ];
  }
  const ready = options.readyTargets.map((name) => toIndex(guide, name, 'ready target'));
  const choice = chooseGuidedIndex(guide, state, {
    idle,
    ready,
    slackSeconds: options.slackSeconds,
    stealFactor: options.stealFactor,
  });
  return choice
    ? { target: problem.names[choice.j]!, reason: choice.reason }
    : { target: null, reason: 'wait' };
}
