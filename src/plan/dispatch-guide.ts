import { UsageError } from '../shared/errors.js';
import { createMinHeap } from './min-heap.js';
import type { PlanNode } from './cost-model.js';
import type { Plan } from '../artifacts/index.js';
import { createProblem, toMinCosts, type CostInput, type PlanProblem } from './problem.js';

// The indexed core of plan-guided dispatch. A guide holds what never changes during a run (costs, planned node
// and rank of each target, each node's planned queue); a DispatchState holds what has happened so far. The
// projection replays the plan's fixed queues from the current state with expected costs: "where would each
// target finish if every node followed its queue from here". Guided dispatch lets an idle node take a ready
// target only if that neither delays the target past its projected finish nor delays the node's own next target,
// and never one whose measured memory peak (plan.json `memoryBytes`) does not fit the idle node.

export type DispatchPlan = Pick<Plan, 'queues' | 'targets' | 'nodes'>;

export interface DispatchGuide {
  problem: PlanProblem;
  /** Planned node of each target. */
  plannedNode: Int32Array;
  /** Position in the plan's global order (planned start, then name): lower runs first. */
  rank: Int32Array;
  /** Per node, its planned queue. */
  queues: number[][];
  /** Every target after its waits and its queue predecessor: the projection's sweep order. */
  order: number[];
  minCost: Float64Array;
}

export interface DispatchState {
  nowSeconds: number;
  /** Node running or having run each target; -1 = not started. */
  node: Int32Array;
  start: Float64Array;
  /** Finish of finished targets; NaN while running or not started. */
  finish: Float64Array;
}

/**
 * Costs the plan itself implies: build_t = build term × speed, bytes = export term × link, setup as planned.
 * @internal
 */
export function toCostsFromPlan(plan: DispatchPlan): Map<string, CostInput> {
  const nodes = new Map(plan.nodes.map((node) => [node.name, node]));
  const costs = new Map<string, CostInput>();
  for (const [name, target] of Object.entries(plan.targets)) {
    const node = nodes.get(target.node);
    if (!node)
      throw new UsageError(
        `plan target ${name} is placed on ${target.node}, which is not among the plan's nodes`,
        { hint: 're-run `rocm-perf plan`' },
      );
    costs.set(name, {
      buildSeconds: target.buildSeconds * node.speed,
      cacheBytes: target.exportSeconds * node.linkMbps * 1e6,
      setupSeconds: target.setupSeconds,
      memoryBytes: target.memoryBytes,
    });
  }
  return costs;
}

function toPlanNodes(plan: DispatchPlan): PlanNode[] {
  return plan.nodes.map(({ name, builder, linkMbps, speed, memoryBytes }) => ({
    name,
    builder,
    linkMbps,
    speed,
    memoryBytes,
  }));
}

/** The costs with each target's memory peak: the costs' own, else the one the plan recorded. */
function withPlanMemory(
  plan: DispatchPlan,
  costs: ReadonlyMap<string, CostInput>,
): ReadonlyMap<string, CostInput> {
  return new Map(
    [...costs].map(([name, cost]) => [
      name,
      { ...cost, memoryBytes: cost.memoryBytes ?? plan.targets[name]?.memoryBytes },
    ]),
  );
}

function toSweepOrder(problem: PlanProblem, queues: readonly number[][], rank: Int32Array): number[] {
  const before = problem.preds.map((list) => [...list]);
  for (const queue of queues) queue.forEach((j, k) => k > 0 && before[j]!.push(queue[k - 1]!));
  const after = problem.names.map(() => [] as number[]);
  before.forEach((list, j) => list.forEach((d) => after[d]!.push(j)));
  const waiting = before.map((list) => list.length);
  // Always the ready target of the lowest rank (ranks are distinct: a permutation).
  const ready = createMinHeap((j) => rank[j]!);
  waiting.forEach((count, j) => count === 0 && ready.push(j));
  const order: number[] = [];
  while (ready.size > 0) {
    const j = ready.pop();
    order.push(j);
    for (const k of after[j]!) if (--waiting[k]! === 0) ready.push(k);
  }
  if (order.length < problem.n)
    throw new UsageError('the plan’s queues contradict its waits (a deadlock)', {
      hint: 're-run `rocm-perf plan`',
    });
  return order;
}

export function createDispatchGuide(
  plan: DispatchPlan,
  costs: ReadonlyMap<string, CostInput> = toCostsFromPlan(plan),
): DispatchGuide {
  const waitFor = Object.fromEntries(
    Object.entries(plan.targets).map(([name, target]) => [name, target.waitFor]),
  );
  const problem = createProblem({
    graph: { targets: Object.keys(plan.targets), deps: waitFor },
    costs: withPlanMemory(plan, costs),
    nodes: toPlanNodes(plan),
  });
  const index = new Map(problem.names.map((name, j) => [name, j]));
  const nodeIndex = new Map(problem.nodes.map((node, i) => [node.name, i]));
  const plannedNode = Int32Array.from(problem.names, (name) => nodeIndex.get(plan.targets[name]!.node) ?? -1);
  const byRank = problem.names
    .map((_, j) => j)
    .sort(
      (a, b) =>
        plan.targets[problem.names[a]!]!.startSeconds - plan.targets[problem.names[b]!]!.startSeconds ||
        a - b,
    );
  const rank = new Int32Array(problem.n);
  byRank.forEach((j, position) => (rank[j] = position));
  const queues = problem.nodes.map((node) =>
    (plan.queues[node.name] ?? []).map((name) => index.get(name) ?? -1).filter((j) => j >= 0),
  );
  return {
    problem,
    plannedNode,
    rank,
    queues,
    order: toSweepOrder(problem, queues, rank),
    minCost: toMinCosts(problem),
  };
}

export function createDispatchState(n: number): DispatchState {
  return {
    nowSeconds: 0,
    node: new Int32Array(n).fill(-1),
    start: new Float64Array(n),
    finish: new Float64Array(n).fill(NaN),
  };
}

interface Projection {
  start: Float64Array;
  finish: Float64Array;
}

/**
 * When a running target is expected to finish: its start plus its cost, or, once it has overrun that by X
 * seconds, X seconds from now (it has run as long again as expected; the longer it overruns, the later the
 * projection puts its end, so an idle node may take the work queued behind it).
 */
function toExpectedFinish(startSeconds: number, costSeconds: number, nowSeconds: number): number {
  const planned = startSeconds + costSeconds;
  return nowSeconds <= planned ? planned : nowSeconds + (nowSeconds - planned);
}

/** Expected start and finish of every target if each node follows its planned queue from now on. */
function projectPlan(guide: DispatchGuide, state: DispatchState): Projection {
  const { problem } = guide;
  const now = state.nowSeconds;
  const start = new Float64Array(problem.n);
  const finish = new Float64Array(problem.n);
  const free = new Float64Array(problem.m).fill(now);
  for (let j = 0; j < problem.n; j++) {
    const i = state.node[j]!;
    if (i < 0) continue;
    start[j] = state.start[j]!;
    finish[j] = Number.isNaN(state.finish[j]!)
      ? toExpectedFinish(state.start[j]!, problem.cost[j * problem.m + i]!, now)
      : state.finish[j]!;
    if (Number.isNaN(state.finish[j]!)) free[i] = Math.max(free[i]!, finish[j]!);
  }
  for (const j of guide.order) {
    if (state.node[j]! >= 0) continue;
    const i = guide.plannedNode[j]!;
    let at = free[i]!;
    for (const d of problem.preds[j]!) at = Math.max(at, finish[d]!);
    start[j] = at;
    finish[j] = at + problem.cost[j * problem.m + i]!;
    free[i] = finish[j]!;
  }
  return { start, finish };
}

export type GuidedReason = 'planned' | 'ahead' | 'fits' | 'steal';

export interface GuidedTuning {
  /** δ: how far past its projected finish a target (or the node's own next target) may be pushed. Default 0. */
  slackSeconds?: number;
  /** ε: also take a ready target whose cost here is ≤ (1 + ε) × its cheapest cost, if the node's own next target is not delayed. Off by default. */
  stealFactor?: number;
}

/** The node's next planned target that has not started, or -1. */
function findOwnHead(guide: DispatchGuide, state: DispatchState, idle: number): number {
  return guide.queues[idle]!.find((j) => state.node[j]! < 0) ?? -1;
}

/** Guided choice for an idle node among ready targets; null = wait for the next event. */
export function chooseGuidedIndex(
  guide: DispatchGuide,
  state: DispatchState,
  options: { idle: number; ready: readonly number[] } & GuidedTuning,
): { j: number; reason: GuidedReason } | null {
  const { idle, ready, slackSeconds = 0, stealFactor } = options;
  const head = findOwnHead(guide, state, idle);
  if (head >= 0 && ready.includes(head)) return { j: head, reason: 'planned' };
  if (ready.length === 0) return null;
  const projection = projectPlan(guide, state);
  const { cost, m } = guide.problem;
  const headStart = head >= 0 ? projection.start[head]! : Infinity;
  const candidates = [...ready].sort((a, b) => guide.rank[a]! - guide.rank[b]!);
  for (const j of candidates) {
    if (!guide.problem.fits[j * m + idle]) continue;
    const seconds = cost[j * m + idle]!;
    const finishHere = state.nowSeconds + seconds;
    if (finishHere > headStart + slackSeconds) continue;
    if (guide.plannedNode[j] === idle) return { j, reason: 'ahead' };
    if (finishHere <= projection.finish[j]! + slackSeconds) return { j, reason: 'fits' };
    if (stealFactor !== undefined && seconds <= (1 + stealFactor) * guide.minCost[j]!)
      return { j, reason: 'steal' };
  }
  return null;
}

/** Fixed queues: the node's own next target if it is ready, else wait. */
export function chooseFixedIndex(
  guide: DispatchGuide,
  state: DispatchState,
  { idle, ready }: { idle: number; ready: readonly number[] },
): number | null {
  const head = findOwnHead(guide, state, idle);
  return head >= 0 && ready.includes(head) ? head : null;
}

/** Greedy reference: the highest-ranked ready target the idle node's memory fits, whatever node it was planned for. */
export function chooseGreedyIndex(
  guide: DispatchGuide,
  { idle, ready }: { idle: number; ready: readonly number[] },
): number | null {
  const { fits, m } = guide.problem;
  let best: number | null = null;
  for (const j of ready)
    if (fits[j * m + idle] && (best === null || guide.rank[j]! < guide.rank[best]!)) best = j;
  return best;
}
