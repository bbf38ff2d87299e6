import { UsageError } from '../shared/errors.js';
import { createTiming, evaluateOrder } from './evaluate-order.js';
import { improvePlacement } from './improve-placement.js';
import { listSchedule, type Placement } from './list-schedule.js';
import type { PlanProblem } from './problem.js';
import { DEFAULT_STRATEGY, STRATEGY_NAMES, type StrategyName } from '../artifacts/index.js';
import { toTargetWeights, toUpwardRanks } from './rank-targets.js';

// The placement strategies. `heft-ls` is the default; the others exist to compare against.

export interface StrategyResult {
  placement: Placement;
  /** What each target waits for: its dependencies, plus the previous stage for `stages`. */
  waitFor: number[][];
}

export interface PlaceOptions {
  strategy: StrategyName;
  seed?: number;
  /** Local-search budget in schedule evaluations; default scales with the instance. */
  maxEvaluations?: number;
  /** A lower bound on the makespan: the search stops once it reaches it. */
  lowerBoundSeconds?: number;
}

function isStrategyName(name: string): name is StrategyName {
  return (STRATEGY_NAMES as readonly string[]).includes(name);
}

export function toStrategyName(name: string | undefined): StrategyName {
  if (name === undefined) return DEFAULT_STRATEGY;
  if (isStrategyName(name)) return name;
  throw new UsageError(`unknown strategy \`${name}\``, { hint: `use one of: ${STRATEGY_NAMES.join(', ')}` });
}

function makespanOf(problem: PlanProblem, placement: Placement): number {
  return evaluateOrder(problem, { ...placement, timing: createTiming(problem.n) });
}

/** Default budget: about 4·10^6 target-steps of evaluation, between 300 and 20 000 evaluations. */
function defaultBudget(problem: PlanProblem): number {
  const edges = problem.preds.reduce((sum, list) => sum + list.length, 0);
  return Math.max(300, Math.min(20_000, Math.floor(2e6 / (problem.n + edges + problem.m))));
}

/** The list phase of `heft-ls`: HEFT-style list schedules the local search starts from (the best of them). @internal */
export function createListCandidates(problem: PlanProblem): Placement[] {
  const mean = toUpwardRanks(problem, toTargetWeights(problem, 'mean'));
  const optimistic = toUpwardRanks(problem, toTargetWeights(problem, 'min'));
  return [
    listSchedule(problem, { priority: mean, insertion: true }),
    listSchedule(problem, { priority: mean }),
    listSchedule(problem, { priority: optimistic, insertion: true }),
    listSchedule(problem, { priority: mean, insertion: true, lookahead: true }),
  ];
}

function placeBest(
  problem: PlanProblem,
  { seed = 1, maxEvaluations, lowerBoundSeconds }: Omit<PlaceOptions, 'strategy'>,
): Placement {
  const candidates = createListCandidates(problem);
  let best = candidates[0]!;
  let bestMakespan = makespanOf(problem, best);
  for (const candidate of candidates.slice(1)) {
    const makespan = makespanOf(problem, candidate);
    if (makespan < bestMakespan) [best, bestMakespan] = [candidate, makespan];
  }
  const budget = maxEvaluations ?? defaultBudget(problem);
  return improvePlacement(problem, {
    start: best,
    seed,
    maxEvaluations: budget,
    stopAtSeconds: lowerBoundSeconds,
  });
}

/** Stage k = longest dependency chain (in edges) leading to the target; stage k waits for all of stage k − 1. */
function toStageWaits(problem: PlanProblem): number[][] {
  const depth = new Int32Array(problem.n);
  for (const j of problem.topo)
    for (const d of problem.preds[j]!) depth[j] = Math.max(depth[j]!, depth[d]! + 1);
  const byStage: number[][] = [];
  for (let j = 0; j < problem.n; j++) (byStage[depth[j]!] ??= []).push(j);
  return Array.from({ length: problem.n }, (_, j) =>
    depth[j]! > 0 ? [...(byStage[depth[j]! - 1] ?? [])] : [],
  );
}

export function placeTargets(problem: PlanProblem, { strategy, ...options }: PlaceOptions): StrategyResult {
  const waitFor = problem.preds.map((list) => [...list]);
  switch (strategy) {
    case 'heft-ls':
      return { placement: placeBest(problem, options), waitFor };
    case 'heft':
      return {
        placement: listSchedule(problem, {
          priority: toUpwardRanks(problem, toTargetWeights(problem, 'mean')),
          insertion: true,
        }),
        waitFor,
      };
    case 'lpt':
      return { placement: listSchedule(problem, { priority: toTargetWeights(problem, 'mean') }), waitFor };
    case 'build-only': {
      const priority = toUpwardRanks(problem, toTargetWeights(problem, 'mean', problem.build));
      return {
        placement: listSchedule(problem, { priority, placeCost: problem.build, insertion: true }),
        waitFor,
      };
    }
    case 'stages': {
      const stageWaits = toStageWaits(problem);
      const priority = toTargetWeights(problem, 'mean');
      return { placement: listSchedule(problem, { priority, waitFor: stageWaits }), waitFor: stageWaits };
    }
  }
}
