import { UsageError } from '../shared/errors.js';
import type { PlanNode } from './cost-model.js';
import { createTiming, evaluateOrder, findCriticalChain, type Timing } from './evaluate-order.js';
import type { Placement } from './list-schedule.js';
import { createProblem, type CostInput, type PlanProblem } from './problem.js';
import { createRandom } from '../shared/random.js';
import { createIdleAdder, toReadyIntervals } from './split-idle.js';
import { toTopologicalOrder } from './topological-order.js';

// A discrete-event simulator for fixed per-node queues under the cost model. Each node runs its queue in order;
// a target starts when its node is free and everything it waits for has finished. Idle time is split into
// placement loss (some target was ready and not yet started somewhere, so a different placement or queue order
// could have used the node) and dependency wait (nothing anywhere was ready).

interface NodeUsage {
  busySeconds: number;
  idleSeconds: number;
  dependencyWaitSeconds: number;
  placementLossSeconds: number;
}

export interface IndexedSimulation {
  makespanSeconds: number;
  timing: Timing;
  duration: Float64Array;
  usage: NodeUsage[];
  criticalChain: number[];
}

export interface SimulateIndexedOptions extends Placement {
  waitFor: readonly (readonly number[])[];
  duration?: Float64Array;
}

function toUsage(
  problem: PlanProblem,
  sim: Omit<IndexedSimulation, 'usage' | 'criticalChain'>,
  placement: SimulateIndexedOptions,
): NodeUsage[] {
  const ready = toReadyIntervals({
    start: sim.timing.start,
    finish: sim.timing.finish,
    deps: placement.waitFor,
  });
  return problem.nodes.map((_, i) => {
    const usage: NodeUsage = {
      busySeconds: 0,
      idleSeconds: 0,
      dependencyWaitSeconds: 0,
      placementLossSeconds: 0,
    };
    let free = 0;
    const addIdle = createIdleAdder(usage, ready);
    for (const j of placement.order) {
      if (placement.assign[j] !== i) continue;
      addIdle(free, sim.timing.start[j]!);
      usage.busySeconds += sim.timing.finish[j]! - sim.timing.start[j]!;
      free = sim.timing.finish[j]!;
    }
    addIdle(free, sim.makespanSeconds);
    return usage;
  });
}

export function simulateIndexed(problem: PlanProblem, options: SimulateIndexedOptions): IndexedSimulation {
  const duration = options.duration ?? problem.cost;
  const timing = createTiming(problem.n);
  const makespanSeconds = evaluateOrder(problem, { ...options, timing, duration });
  const base = { makespanSeconds, timing, duration };
  return {
    ...base,
    usage: toUsage(problem, base, options),
    criticalChain: findCriticalChain(problem, timing, options.waitFor),
  };
}

/** Multiply each target's duration by a seeded lognormal factor exp(σ·N(0,1)). */
export function toNoisyDurations(problem: PlanProblem, { sigma, seed }: DurationNoise): Float64Array {
  const random = createRandom(seed);
  const out = Float64Array.from(problem.cost);
  for (let j = 0; j < problem.n; j++) {
    const normal = Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
    const factor = Math.exp(sigma * normal);
    for (let i = 0; i < problem.m; i++) out[j * problem.m + i]! *= factor;
  }
  return out;
}

export interface DurationNoise {
  sigma: number;
  seed: number;
}

export interface SimulatePlanOptions {
  queues: Readonly<Record<string, readonly string[]>>;
  /** What each target waits for (its in-run dependencies, plus stage barriers if any). */
  waitFor: Readonly<Record<string, readonly string[]>>;
  costs: ReadonlyMap<string, CostInput>;
  nodes: readonly PlanNode[];
  durationNoise?: DurationNoise;
}

export interface TargetTiming {
  node: string;
  startSeconds: number;
  finishSeconds: number;
}

export interface Simulation {
  makespanSeconds: number;
  nodes: (NodeUsage & { name: string })[];
  targets: Record<string, TargetTiming>;
  criticalPath: string[];
}

function toAssignment(
  problem: PlanProblem,
  queues: SimulatePlanOptions['queues'],
): { assign: Int32Array; queueOf: number[][] } {
  const index = new Map(problem.names.map((name, j) => [name, j]));
  const assign = new Int32Array(problem.n).fill(-1);
  const queueOf: number[][] = problem.nodes.map(() => []);
  const problems: string[] = [];
  for (const [node, names] of Object.entries(queues)) {
    const i = problem.nodes.findIndex((candidate) => candidate.name === node);
    if (i < 0) problems.push(`queue for unknown node \`${node}\``);
    for (const name of names) {
      const j = index.get(name);
      if (j === undefined) problems.push(`queued target \`${name}\` has no costs`);
      else if (assign[j]! >= 0) problems.push(`target \`${name}\` is queued twice`);
      else if (i >= 0) [assign[j], queueOf[i]![queueOf[i]!.length]] = [i, j];
    }
  }
  problem.names.forEach(
    (name, j) => assign[j]! < 0 && index.has(name) && problems.push(`target \`${name}\` is in no queue`),
  );
  if (problems.length > 0) throw new UsageError(`cannot simulate the plan: ${problems.join('; ')}`);
  return { assign, queueOf };
}

/** One order that respects both the queues and the waits; a cycle between them is a deadlock. */
function toExecutionOrder(
  problem: PlanProblem,
  queueOf: number[][],
  waitFor: readonly (readonly number[])[],
): number[] {
  const before = waitFor.map((list) => [...list]);
  for (const queue of queueOf) queue.forEach((j, k) => k > 0 && before[j]!.push(queue[k - 1]!));
  const { order, stuck } = toTopologicalOrder(before, problem.n);
  if (order.length < problem.n) {
    const names = stuck.map((j) => problem.names[j]!);
    throw new UsageError(`the queues deadlock: ${names.join(', ')} wait on each other across nodes`, {
      hint: 're-run `rocm-perf plan`',
    });
  }
  return order;
}

// Public entry: simulate named queues. Deterministic; `durationNoise` perturbs durations reproducibly.
export function simulatePlan(options: SimulatePlanOptions): Simulation {
  const targets = [
    ...Object.values(options.queues).flat(),
    ...Object.keys(options.waitFor),
    ...Object.values(options.waitFor).flat(),
  ];
  const problem = createProblem({
    graph: { targets, deps: options.waitFor },
    costs: options.costs,
    nodes: options.nodes,
  });
  const { assign, queueOf } = toAssignment(problem, options.queues);
  const waitFor = problem.preds;
  const order = toExecutionOrder(problem, queueOf, waitFor);
  const duration = options.durationNoise ? toNoisyDurations(problem, options.durationNoise) : problem.cost;
  const sim = simulateIndexed(problem, { order, assign, waitFor, duration });
  const byName: Record<string, TargetTiming> = {};
  problem.names.forEach((name, j) => {
    byName[name] = {
      node: problem.nodes[assign[j]!]!.name,
      startSeconds: sim.timing.start[j]!,
      finishSeconds: sim.timing.finish[j]!,
    };
  });
  return {
    makespanSeconds: sim.makespanSeconds,
    nodes: sim.usage.map((usage, i) => ({ name: problem.nodes[i]!.name, ...usage })),
    targets: byName,
    criticalPath: sim.criticalChain.map((j) => problem.names[j]!),
  };
}
