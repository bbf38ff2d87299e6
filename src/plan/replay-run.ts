import type { TargetTrace } from '../collect/index.js';
import type { Plan, RunFile } from '../artifacts/index.js';
import { UsageError } from '../shared/errors.js';
import type { PlanNode } from './cost-model.js';
import { createPlan } from './create-plan.js';
import {
  applyFleetChanges,
  describeFleetChanges,
  isFleetChanged,
  type FleetChanges,
} from './fleet-changes.js';
import type { CostMode } from './choose-costs.js';
import type { CostInput } from './problem.js';
import { toReplayCosts, type ReplayCost } from './replay-costs.js';
import { simulatePlan } from './simulate-plan.js';

// What-if replay (`rocm-perf plan --from-run RUN`): a recorded run's measured costs, re-simulated.
// - baseline:  the run's own queues (node and start order from run.json) on the recorded fleet;
// - recorded queues on the changed fleet (when no node holding a queue was dropped);
// - predicted: a fresh plan (any strategy) on the changed fleet.
// Predicted − baseline isolates the change: both use the same cost model and the same measured costs. Baseline −
// actual is the model's own error on this run (upload throughput off its link_mbps, contention, and so on; setup
// time is measured per target and included).

export interface ReplayRunOptions {
  run: RunFile;
  /** The run's plan.json: the graph (deps and waits) and the recorded strategy. */
  plan: Plan;
  traces: ReadonlyMap<string, TargetTrace>;
  /** Fallback figures (.builders/target-costs) for cold bytes and targets without a usable trace. */
  targetCosts?: ReadonlyMap<string, CostInput>;
  changes?: FleetChanges;
  /** Default: the recorded plan's strategy. */
  strategy?: string;
  /** The run's mode (warm or cold): what the measured build figures are, recorded in the predicted plan. */
  mode?: CostMode;
  createdAt: string;
  seed?: number;
  maxEvaluations?: number;
}

export interface ReplayResult {
  stamp: string;
  harness: RunFile['harness'];
  recordedStrategy: string;
  strategy: string;
  fleetChanges: string[];
  recordedNodes: PlanNode[];
  nodes: PlanNode[];
  /** Measured start to last finish, from run.json; null when nothing finished. */
  actualMakespanSeconds: number | null;
  baselineMakespanSeconds: number;
  recordedQueuesOnChangedFleetSeconds: number | null;
  predictedMakespanSeconds: number;
  /** predicted − baseline. */
  deltaSeconds: number;
  /** (predicted − baseline) / baseline. */
  deltaShare: number;
  recordedQueues: Record<string, string[]>;
  costs: Record<string, ReplayCost>;
  plan: Plan;
  /** The run replayed as `diff` replays it (its own waits and upload rates), when the caller made that replay. */
  asRecorded: RecordedReplayFigures | null;
  notes: string[];
}

/** diff's replay of the run with its own figures (src/diff/replay-as-recorded.ts), made by the caller. */
interface RecordedReplayFigures {
  makespanSeconds: number;
  /** The same replay without node start delays and target start lags. */
  withoutWaitsSeconds: number;
}

/**
 * Per node, its targets in the order they started in the run; targets that never started follow in plan order.
 * @internal
 */
export function toRecordedQueues(
  run: Pick<RunFile, 'targets'>,
  plan: Pick<Plan, 'queues' | 'targets'>,
): Record<string, string[]> {
  const started = Object.entries(run.targets)
    .filter(([name]) => plan.targets[name] !== undefined)
    .flatMap(([name, outcome]) =>
      'startedAtMs' in outcome ? [{ name, node: outcome.node, at: outcome.startedAtMs }] : [],
    )
    .sort((a, b) => a.at - b.at || (a.name < b.name ? -1 : 1));
  const queues: Record<string, string[]> = {};
  for (const { name, node } of started) (queues[node] ??= []).push(name);
  const placed = new Set(started.map((entry) => entry.name));
  for (const list of Object.values(plan.queues)) {
    for (const name of list) {
      if (placed.has(name)) continue;
      (queues[run.targets[name]?.node ?? plan.targets[name]!.node] ??= []).push(name);
      placed.add(name);
    }
  }
  return queues;
}

function findActualMakespanSeconds(run: Pick<RunFile, 'targets' | 'measuredStartedAtMs'>): number | null {
  const outcomes = Object.values(run.targets).flatMap((outcome) =>
    'finishedAtMs' in outcome ? [outcome] : [],
  );
  if (outcomes.length === 0) return null;
  const origin = run.measuredStartedAtMs ?? Math.min(...outcomes.map((outcome) => outcome.startedAtMs));
  return (Math.max(...outcomes.map((outcome) => outcome.finishedAtMs)) - origin) / 1000;
}

function toRecordedNodes(run: RunFile, queues: Record<string, string[]>): PlanNode[] {
  const unknown = Object.keys(queues).filter((name) => !run.nodes.some((node) => node.name === name));
  if (unknown.length > 0)
    throw new UsageError(
      `run ${run.stamp}: targets ran on ${unknown.join(', ')}, which run.json's nodes do not list`,
      { hint: 'the run file is incomplete; replay another run' },
    );
  return run.nodes.map(({ name, builder, linkMbps, speed }) => ({ name, builder, linkMbps, speed }));
}

function describeRun(run: RunFile): string[] {
  const notes: string[] = [];
  if (run.status !== 'completed')
    notes.push(
      `run ${run.stamp} is ${run.status}: the actual makespan covers only what finished; other targets use the target costs`,
    );
  if (run.harness === 'bench')
    notes.push(
      'a bench run builds one target at a time, so its actual makespan is serial and not comparable with the parallel simulations',
    );
  return notes;
}

export function replayRun(options: ReplayRunOptions): ReplayResult {
  const { run, plan } = options;
  const targets = Object.keys(plan.targets).sort();
  const { costs, notes } = toReplayCosts({
    run,
    targets,
    traces: options.traces,
    targetCosts: options.targetCosts,
  });
  const waitFor = Object.fromEntries(targets.map((name) => [name, plan.targets[name]!.waitFor]));
  const deps = Object.fromEntries(targets.map((name) => [name, plan.targets[name]!.deps]));
  const recordedQueues = toRecordedQueues(run, plan);
  const recordedNodes = toRecordedNodes(run, recordedQueues);
  const changes = options.changes ?? { links: {}, speeds: {}, dropNodes: [], addNodes: [] };
  const nodes = applyFleetChanges(recordedNodes, changes);
  const baseline = simulatePlan({ queues: recordedQueues, waitFor, costs, nodes: recordedNodes });
  const queuesSurvive = Object.entries(recordedQueues).every(
    ([node, list]) => list.length === 0 || nodes.some((kept) => kept.name === node),
  );
  const onChanged =
    isFleetChanged(changes) && queuesSurvive
      ? simulatePlan({ queues: recordedQueues, waitFor, costs, nodes }).makespanSeconds
      : null;
  if (!queuesSurvive)
    notes.push(
      'the recorded queues cannot run on the changed fleet (a dropped node held some), so only the fresh plan is simulated there',
    );
  const strategy = options.strategy ?? plan.strategy;
  const predicted = createPlan({
    graph: { targets, deps },
    costs,
    nodes,
    strategy,
    arch: run.arch,
    createdAt: options.createdAt,
    seed: options.seed,
    maxEvaluations: options.maxEvaluations,
    costSet: { mode: options.mode ?? 'cold', coldBuildFor: [], fullExportFor: [] },
  });
  const deltaSeconds = predicted.makespanSeconds - baseline.makespanSeconds;
  return {
    stamp: run.stamp,
    harness: run.harness,
    recordedStrategy: plan.strategy,
    strategy: predicted.strategy,
    fleetChanges: describeFleetChanges(recordedNodes, changes),
    recordedNodes,
    nodes,
    actualMakespanSeconds: findActualMakespanSeconds(run),
    baselineMakespanSeconds: baseline.makespanSeconds,
    recordedQueuesOnChangedFleetSeconds: onChanged,
    predictedMakespanSeconds: predicted.makespanSeconds,
    deltaSeconds,
    deltaShare: baseline.makespanSeconds > 0 ? deltaSeconds / baseline.makespanSeconds : 0,
    recordedQueues,
    costs: Object.fromEntries(costs),
    plan: predicted,
    asRecorded: null,
    notes: [...describeRun(run), ...notes],
  };
}
