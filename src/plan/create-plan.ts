import type { CostSet } from './choose-costs.js';
import { InternalError } from '../shared/errors.js';
import type { PlanNode } from './cost-model.js';
import { findLowerBound, type LowerBound } from './lower-bound.js';
import { placeTargets, toStrategyName } from './place-targets.js';
import { type Plan, PLAN_VERSION, type PlanTarget, type StrategyName } from '../artifacts/index.js';
import {
  createProblem,
  findMemoryMisfits,
  type CostInput,
  type PlanGraph,
  type PlanProblem,
} from './problem.js';
import { simulateIndexed, type IndexedSimulation } from './simulate-plan.js';

// Graph + costs + nodes → the versioned plan document. Pure: `createdAt` arrives as a parameter. The reported
// times are the simulator's, so the plan and its simulation agree by construction.

export interface CreatePlanOptions {
  graph: PlanGraph;
  costs: ReadonlyMap<string, CostInput>;
  nodes: readonly PlanNode[];
  /** Strategy name; default `heft-ls`. Unknown names throw a UsageError listing the valid ones. */
  strategy?: string;
  arch: string;
  /** ISO 8601 time of planning. */
  createdAt: string;
  /** Seed of the local search (deterministic for a given seed). */
  seed?: number;
  /** Local-search budget in schedule evaluations. */
  maxEvaluations?: number;
  /** Which build figures `costs` holds (recorded in plan.json); default cold. */
  costSet?: Pick<CostSet, 'mode' | 'coldBuildFor' | 'fullExportFor'>;
  /** Place with these costs instead (robust placement: costs at a high percentile); times are still `costs`'. */
  placementCosts?: ReadonlyMap<string, CostInput>;
}

function toTargets(
  problem: PlanProblem,
  sim: IndexedSimulation,
  assign: Int32Array,
  waitFor: number[][],
): Record<string, PlanTarget> {
  const names = (list: readonly number[]) => list.map((k) => problem.names[k]!).sort();
  const targets: Record<string, PlanTarget> = {};
  problem.names.forEach((name, j) => {
    const i = assign[j]!;
    targets[name] = {
      node: problem.nodes[i]!.name,
      startSeconds: sim.timing.start[j]!,
      finishSeconds: sim.timing.finish[j]!,
      buildSeconds: problem.build[j * problem.m + i]!,
      exportSeconds: problem.exportSeconds[j * problem.m + i]!,
      setupSeconds: problem.setup[j]!,
      ...(Number.isNaN(problem.memoryBytes[j]!) ? {} : { memoryBytes: problem.memoryBytes[j]! }),
      deps: names(problem.preds[j]!),
      waitFor: names(waitFor[j]!),
    };
  });
  return targets;
}

function toQueues(
  problem: PlanProblem,
  order: readonly number[],
  assign: Int32Array,
): Record<string, string[]> {
  const queues: Record<string, string[]> = {};
  for (const node of problem.nodes) queues[node.name] = [];
  for (const j of order) queues[problem.nodes[assign[j]!]!.name]!.push(problem.names[j]!);
  return queues;
}

function toLowerBoundEntry(problem: PlanProblem, bound: LowerBound): Plan['lowerBound'] {
  const { pathSeconds, loadSeconds, windowSeconds, targetSeconds, path } = bound;
  return { pathSeconds, loadSeconds, windowSeconds, targetSeconds, path: path.map((j) => problem.names[j]!) };
}

/** The public planning entry point (used by `rocm-perf plan` and the run harnesses). */
export function createPlan(options: CreatePlanOptions): Plan {
  const strategy: StrategyName = toStrategyName(options.strategy);
  const problem = createProblem(options);
  const bound = findLowerBound(problem);
  const lowerBoundSeconds = bound.lowerBoundSeconds;
  const { seed, maxEvaluations } = options;
  const placeOn = options.placementCosts
    ? createProblem({ ...options, costs: withMemory(options.placementCosts, options.costs) })
    : problem;
  const placeBound = placeOn === problem ? lowerBoundSeconds : findLowerBound(placeOn).lowerBoundSeconds;
  const { placement, waitFor } = placeTargets(placeOn, {
    strategy,
    seed,
    maxEvaluations,
    lowerBoundSeconds: placeBound,
  });
  const sim = simulateIndexed(problem, { ...placement, waitFor });
  if (lowerBoundSeconds > sim.makespanSeconds * (1 + 1e-9)) {
    throw new InternalError(
      `lower bound ${lowerBoundSeconds} s exceeds the makespan ${sim.makespanSeconds} s`,
    );
  }
  return {
    version: PLAN_VERSION,
    strategy,
    arch: options.arch,
    createdAt: options.createdAt,
    makespanSeconds: sim.makespanSeconds,
    lowerBoundSeconds,
    gap: lowerBoundSeconds > 0 ? Math.max(0, sim.makespanSeconds / lowerBoundSeconds - 1) : 0,
    lowerBound: toLowerBoundEntry(problem, bound),
    queues: toQueues(problem, placement.order, placement.assign),
    targets: toTargets(problem, sim, placement.assign, waitFor),
    criticalPath: sim.criticalChain.map((j) => problem.names[j]!),
    nodes: problem.nodes.map((node, i) => ({ ...pickNode(node), ...sim.usage[i]! })),
    costs: {
      mode: options.costSet?.mode ?? 'cold',
      coldBuildFor: [...(options.costSet?.coldBuildFor ?? [])],
      fullExportFor: [...(options.costSet?.fullExportFor ?? [])],
    },
    ...(isMemoryRuleActive(problem) ? { memoryForbidden: findMemoryMisfits(problem) } : {}),
  };
}

function pickNode({ name, builder, linkMbps, speed, memoryBytes }: PlanNode): PlanNode {
  return { name, builder, linkMbps, speed, ...(memoryBytes === undefined ? {} : { memoryBytes }) };
}

/** The memory rule can forbid something: some target's peak and some node's memory are known. */
function isMemoryRuleActive(problem: PlanProblem): boolean {
  return (
    problem.memoryBytes.some((bytes) => !Number.isNaN(bytes)) &&
    problem.nodes.some((node) => node.memoryBytes !== undefined)
  );
}

/** Placement costs (drawn percentiles) keep each target's memory peak, so a robust placement obeys the rule too. */
function withMemory(
  placement: ReadonlyMap<string, CostInput>,
  costs: ReadonlyMap<string, CostInput>,
): Map<string, CostInput> {
  return new Map(
    [...placement].map(([name, cost]) => [name, { ...cost, memoryBytes: costs.get(name)?.memoryBytes }]),
  );
}
