import { UsageError } from '../shared/errors.js';
import { toIdleSplit, type NodeIdle } from './split-idle.js';
import { toTopologicalOrder } from './topological-order.js';

// Critical path with drag over a REALISED schedule (a recorded run, or a simulation): which chain of targets set
// the makespan, across nodes (dependency edges AND same-node queue edges), and for each target on it the drag:
// how much the makespan shrinks if that target took zero time, before another path takes over. The makespan is
// a max of paths, each with slope 0 or 1 in one target's duration, so making the target x seconds faster shrinks
// the makespan by min(x, drag): the drag says everything about "faster" too.
//
// Drag is exact under the recorded queues: the schedule is replayed with each target's duration and its launch
// delay (the time between its last constraint finishing and its start: harness overhead) kept, one duration set
// to zero, node queues and order unchanged.

export interface ScheduledTarget {
  node: string;
  startSeconds: number;
  finishSeconds: number;
  /** What the target waited for before starting (the plan's `waitFor`: in-run deps, plus stage barriers). */
  deps: readonly string[];
}

export interface RealisedSchedule {
  /** Seconds from the start of the run. */
  targets: Readonly<Record<string, ScheduledTarget>>;
  /** node → targets in the order they ran. Default: each node's targets by start time. */
  queues?: Readonly<Record<string, readonly string[]>>;
}

interface PlannedTiming {
  node: string;
  startSeconds: number;
  finishSeconds: number;
}

export interface BuildCriticalDragOptions {
  schedule: RealisedSchedule;
  /** The plan's targets (plan.json `targets`), for plan vs actual per target. */
  planned?: Readonly<Record<string, PlannedTiming>>;
  /** Every node of the fleet, so a node that ran nothing still shows its idle time. */
  nodeNames?: readonly string[];
}

interface CriticalPathEntry {
  target: string;
  node: string;
  startSeconds: number;
  finishSeconds: number;
  durationSeconds: number;
  /** How the path reached this target: from a dependency, from the previous target on the node, or the start. */
  via: 'dependency' | 'queue' | 'start';
  /** Time between the binding predecessor finishing (or 0) and this target starting: launch overhead. */
  launchDelaySeconds: number;
  /** Makespan saved if this target took zero time, the queues unchanged. */
  dragSeconds: number;
}

interface TargetVersusPlan {
  target: string;
  node: string | null;
  plannedNode: string | null;
  startSeconds: number | null;
  finishSeconds: number | null;
  plannedStartSeconds: number | null;
  plannedFinishSeconds: number | null;
  /** actual − planned start. */
  startDeltaSeconds: number | null;
  /** actual − planned duration. */
  durationDeltaSeconds: number | null;
}

export interface CriticalDrag {
  /** Last finish of the schedule. */
  makespanSeconds: number;
  path: CriticalPathEntry[];
  nodes: NodeIdle[];
  /** Every target of the schedule or the plan, by name. */
  targets: TargetVersusPlan[];
}

interface Indexed {
  names: string[];
  node: string[];
  start: Float64Array;
  finish: Float64Array;
  deps: number[][];
  prevOnNode: Int32Array;
  /** Every target after all of its constraints. */
  order: number[];
}

function toQueues(schedule: RealisedSchedule, names: readonly string[]): Record<string, string[]> {
  if (schedule.queues)
    return Object.fromEntries(Object.entries(schedule.queues).map(([node, list]) => [node, [...list]]));
  const queues: Record<string, string[]> = {};
  for (const name of names) (queues[schedule.targets[name]!.node] ??= []).push(name);
  for (const list of Object.values(queues))
    list.sort(
      (a, b) => schedule.targets[a]!.startSeconds - schedule.targets[b]!.startSeconds || (a < b ? -1 : 1),
    );
  return queues;
}

function findScheduleProblems(schedule: RealisedSchedule, queues: Record<string, string[]>): string[] {
  const problems: string[] = [];
  const queued = new Map<string, string>();
  for (const [node, list] of Object.entries(queues)) {
    for (const name of list) {
      const target = schedule.targets[name];
      if (!target) problems.push(`queue ${node} lists \`${name}\`, which has no times`);
      else if (target.node !== node)
        problems.push(`\`${name}\` ran on ${target.node} but is queued on ${node}`);
      if (queued.has(name)) problems.push(`\`${name}\` is queued twice`);
      queued.set(name, node);
    }
  }
  for (const [name, target] of Object.entries(schedule.targets)) {
    if (!queued.has(name)) problems.push(`\`${name}\` is in no queue`);
    if (!(target.finishSeconds >= target.startSeconds))
      problems.push(
        `\`${name}\` finishes (${target.finishSeconds} s) before it starts (${target.startSeconds} s)`,
      );
  }
  return problems;
}

function toIndexed(schedule: RealisedSchedule): Indexed {
  const names = Object.keys(schedule.targets).sort();
  const queues = toQueues(schedule, names);
  const problems = findScheduleProblems(schedule, queues);
  if (problems.length > 0) throw new UsageError(`cannot analyse the schedule: ${problems.join('; ')}`);
  const index = new Map(names.map((name, j) => [name, j]));
  const prevOnNode = new Int32Array(names.length).fill(-1);
  for (const list of Object.values(queues))
    list.forEach((name, k) => k > 0 && (prevOnNode[index.get(name)!] = index.get(list[k - 1]!)!));
  const deps = names.map((name) =>
    [...new Set(schedule.targets[name]!.deps)].flatMap((dep) => (index.has(dep) ? [index.get(dep)!] : [])),
  );
  const pick = (key: 'startSeconds' | 'finishSeconds') =>
    Float64Array.from(names, (name) => schedule.targets[name]![key]);
  const indexed = {
    names,
    node: names.map((name) => schedule.targets[name]!.node),
    start: pick('startSeconds'),
    finish: pick('finishSeconds'),
    deps,
    prevOnNode,
  };
  return { ...indexed, order: toConstraintOrder(indexed) };
}

function toConstraintOrder({ names, deps, prevOnNode }: Omit<Indexed, 'order'>): number[] {
  const before = deps.map((list, j) => (prevOnNode[j]! >= 0 ? [...list, prevOnNode[j]!] : list));
  const { order, stuck } = toTopologicalOrder(before, names.length);
  if (order.length < names.length) {
    throw new UsageError(
      `cannot analyse the schedule: queue order and dependencies form a cycle among ${stuck.map((j) => names[j]!).join(', ')}`,
    );
  }
  return order;
}

/** Latest finish among a target's constraints (deps and queue predecessor), with which one it was. */
function findBinding(
  s: Indexed,
  finish: Float64Array,
  j: number,
): { at: number; from: number; via: CriticalPathEntry['via'] } {
  let best: { at: number; from: number; via: CriticalPathEntry['via'] } = { at: 0, from: -1, via: 'start' };
  for (const d of s.deps[j]!)
    if (finish[d]! > best.at || (best.from < 0 && finish[d]! >= best.at))
      best = { at: finish[d]!, from: d, via: 'dependency' };
  const prev = s.prevOnNode[j]!;
  if (prev >= 0 && (finish[prev]! > best.at || (best.from < 0 && finish[prev]! >= best.at)))
    best = { at: finish[prev]!, from: prev, via: 'queue' };
  return best;
}

/** Replays the schedule with the recorded durations and launch delays; `zeroed` takes no time. */
function replayMakespan(s: Indexed, launchDelay: Float64Array, zeroed: number): number {
  const finish = new Float64Array(s.names.length);
  let makespan = 0;
  for (const j of s.order) {
    const start = findBinding(s, finish, j).at + launchDelay[j]!;
    const finishAt = start + (j === zeroed ? 0 : s.finish[j]! - s.start[j]!);
    finish[j] = finishAt;
    makespan = Math.max(makespan, finishAt);
  }
  return makespan;
}

function findCriticalPath(s: Indexed): CriticalPathEntry[] {
  const launchDelay = Float64Array.from(s.names, (_, j) =>
    Math.max(0, s.start[j]! - findBinding(s, s.finish, j).at),
  );
  const baseline = replayMakespan(s, launchDelay, -1);
  let current = -1;
  s.finish.forEach((finish, j) => (current < 0 || finish > s.finish[current]! ? (current = j) : undefined));
  const path: CriticalPathEntry[] = [];
  while (current >= 0) {
    const binding = findBinding(s, s.finish, current);
    path.push({
      target: s.names[current]!,
      node: s.node[current]!,
      startSeconds: s.start[current]!,
      finishSeconds: s.finish[current]!,
      durationSeconds: s.finish[current]! - s.start[current]!,
      via: binding.via,
      launchDelaySeconds: launchDelay[current]!,
      dragSeconds: Math.max(0, baseline - replayMakespan(s, launchDelay, current)),
    });
    current = binding.from;
  }
  return path.reverse();
}

function compareWithPlan(
  schedule: RealisedSchedule,
  planned: BuildCriticalDragOptions['planned'] = {},
): TargetVersusPlan[] {
  const names = [...new Set([...Object.keys(schedule.targets), ...Object.keys(planned)])].sort();
  return names.map((target) => {
    const actual = schedule.targets[target];
    const plan = planned[target];
    const both = actual && plan;
    return {
      target,
      node: actual?.node ?? null,
      plannedNode: plan?.node ?? null,
      startSeconds: actual?.startSeconds ?? null,
      finishSeconds: actual?.finishSeconds ?? null,
      plannedStartSeconds: plan?.startSeconds ?? null,
      plannedFinishSeconds: plan?.finishSeconds ?? null,
      startDeltaSeconds: both ? actual.startSeconds - plan.startSeconds : null,
      durationDeltaSeconds: both
        ? actual.finishSeconds - actual.startSeconds - (plan.finishSeconds - plan.startSeconds)
        : null,
    };
  });
}

/**
 * The critical path of a realised schedule with each entry's drag, the idle time of every node split into
 * dependency wait and placement loss, and plan vs actual per target. Pure; throws a UsageError naming the
 * targets when the schedule is inconsistent (a target in no queue, or a cycle between queues and deps).
 */
export function buildCriticalDrag({ schedule, planned, nodeNames }: BuildCriticalDragOptions): CriticalDrag {
  const s = toIndexed(schedule);
  const makespanSeconds = s.finish.reduce((max, finish) => Math.max(max, finish), 0);
  const nodes = toIdleSplit({
    names: s.names,
    node: s.node,
    start: s.start,
    finish: s.finish,
    deps: s.deps,
    makespanSeconds,
    nodeNames,
  });
  return {
    makespanSeconds,
    path: s.names.length > 0 ? findCriticalPath(s) : [],
    nodes,
    targets: compareWithPlan(schedule, planned),
  };
}
