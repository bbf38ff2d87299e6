// Idle time of each node in a realised schedule, split as the simulator splits it (docs/planning.md): during an
// idle interval, the part in which some target anywhere was ready (every dependency finished) but not started is
// placement loss; the rest is dependency wait.
import { mergeIntervals } from '../shared/intervals.js';

export interface NodeIdle {
  name: string;
  busySeconds: number;
  idleSeconds: number;
  dependencyWaitSeconds: number;
  placementLossSeconds: number;
}

export interface IdleSplitInput {
  names: readonly string[];
  node: readonly string[];
  start: Float64Array;
  finish: Float64Array;
  deps: readonly (readonly number[])[];
  makespanSeconds: number;
  /** Nodes to report even if they ran nothing. */
  nodeNames?: readonly string[];
}

/** Sorted, merged [from, to) intervals during which at least one target was ready but not started. */
export function toReadyIntervals({
  start,
  finish,
  deps,
}: Pick<IdleSplitInput, 'start' | 'finish' | 'deps'>): [number, number][] {
  const spans: [number, number][] = [];
  start.forEach((startAt, j) => {
    let readyAt = 0;
    for (const d of deps[j]!) readyAt = Math.max(readyAt, finish[d]!);
    if (startAt > readyAt) spans.push([readyAt, startAt]);
  });
  return mergeIntervals(spans);
}

function overlapSeconds(from: number, to: number, intervals: readonly [number, number][]): number {
  let total = 0;
  for (const [a, b] of intervals) total += Math.max(0, Math.min(to, b) - Math.max(from, a));
  return total;
}

export type IdleSeconds = Pick<NodeIdle, 'idleSeconds' | 'dependencyWaitSeconds' | 'placementLossSeconds'>;

/** Adds an idle interval to `usage`: the part overlapping `ready` is placement loss, the rest dependency wait. */
export function createIdleAdder(
  usage: IdleSeconds,
  ready: readonly [number, number][],
): (from: number, to: number) => void {
  return (from, to) => {
    if (to <= from) return;
    const loss = overlapSeconds(from, to, ready);
    usage.idleSeconds += to - from;
    usage.placementLossSeconds += loss;
    usage.dependencyWaitSeconds += to - from - loss;
  };
}

/** One entry per node, sorted by name. Overlapping targets on one node (should not happen) count once as busy. */
export function toIdleSplit(input: IdleSplitInput): NodeIdle[] {
  const ready = toReadyIntervals(input);
  const nodes = [...new Set([...(input.nodeNames ?? []), ...input.node])].sort();
  return nodes.map((name) => {
    const usage: NodeIdle = {
      name,
      busySeconds: 0,
      idleSeconds: 0,
      dependencyWaitSeconds: 0,
      placementLossSeconds: 0,
    };
    const addIdle = createIdleAdder(usage, ready);
    const own = input.names
      .flatMap((_, j) => (input.node[j] === name ? [j] : []))
      .sort((a, b) => input.start[a]! - input.start[b]!);
    let free = 0;
    for (const j of own) {
      addIdle(free, input.start[j]!);
      usage.busySeconds += Math.max(0, input.finish[j]! - Math.max(free, input.start[j]!));
      free = Math.max(free, input.finish[j]!);
    }
    addIdle(free, input.makespanSeconds);
    return usage;
  });
}
