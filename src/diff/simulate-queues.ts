import { createTiming, evaluateOrder, toTopologicalOrder, type Timing } from '../plan/index.js';
import { UsageError } from '../shared/errors.js';

// The fixed per-node queues of one run, indexed for the makespan explanation's counterfactuals, and their replay
// through the planner's own `evaluateOrder` (one replay of fixed queues in the project). Pure. Each node runs its
// queue in order; a target starts at max(finish of the previous target on its node, or the node's start delay for
// its first; finish of everything it waits for) + its start lag, and takes buildRef / speed + bytes / throughput on
// the node it is queued on. The event order is a topological order of (queue predecessor, waitFor) edges, computed
// once per placement.

/** The queues and waits of one placement, indexed: targets 0..n−1, nodes 0..m−1. */
export interface QueuePlacement {
  nodeOf: Int32Array;
  /** The previous target on the same node, −1 for the first. */
  prev: Int32Array;
  deps: readonly (readonly number[])[];
  /** Every target after its queue predecessor and its deps. */
  order: readonly number[];
}

export interface BuildQueuePlacementOptions {
  targets: readonly string[];
  nodes: readonly string[];
  queues: Readonly<Record<string, readonly string[]>>;
  waitFor: Readonly<Record<string, readonly string[]>>;
}

/** Throws a UsageError when a target is in no queue or the queues and waits form a cycle. */
export function buildQueuePlacement({
  targets,
  nodes,
  queues,
  waitFor,
}: BuildQueuePlacementOptions): QueuePlacement {
  const index = new Map(targets.map((name, j) => [name, j]));
  const nodeOf = new Int32Array(targets.length).fill(-1);
  const prev = new Int32Array(targets.length).fill(-1);
  for (const [node, queue] of Object.entries(queues)) {
    const i = nodes.indexOf(node);
    const kept = queue.filter((name) => index.has(name));
    kept.forEach((name, k) => {
      nodeOf[index.get(name)!] = i;
      if (k > 0) prev[index.get(name)!] = index.get(kept[k - 1]!)!;
    });
  }
  const unplaced = targets.filter((_, j) => nodeOf[j]! < 0);
  if (unplaced.length > 0)
    throw new UsageError(`cannot replay the queues: ${unplaced.join(', ')} in no queue of a known node`);
  const deps = targets.map((name) =>
    [...new Set(waitFor[name] ?? [])].flatMap((dep) => (index.has(dep) ? [index.get(dep)!] : [])),
  );
  const before = deps.map((list, j) => (prev[j]! >= 0 ? [...list, prev[j]!] : [...list]));
  const { order, stuck } = toTopologicalOrder(before, targets.length);
  if (stuck.length > 0)
    throw new UsageError(
      `cannot replay the queues: queue order and waits form a cycle among ${stuck.map((j) => targets[j]).join(', ')}`,
    );
  return { nodeOf, prev, deps, order };
}

export interface QueueFigures {
  placement: QueuePlacement;
  /** Per target: build seconds at speed 1. */
  buildRefSeconds: Float64Array;
  uploadBytes: Float64Array;
  startLagSeconds: Float64Array;
  /** Per node. */
  speed: Float64Array;
  throughputBytesPerSecond: Float64Array;
  startDelaySeconds: Float64Array;
}

export interface QueueReplay {
  makespanSeconds: number;
  startSeconds: Float64Array;
  finishSeconds: Float64Array;
}

/** Buffers a caller replaying one placement size many times can pass back in (createQueueScratch). */
export interface QueueScratch {
  duration: Float64Array;
  timing: Timing;
}

export function createQueueScratch(targets: number, nodes: number): QueueScratch {
  return { duration: new Float64Array(targets * nodes), timing: createTiming(targets) };
}

/** The replay's figures are valid until the next call with the same scratch. */
export function simulateQueues(
  figures: QueueFigures,
  scratch: QueueScratch = createQueueScratch(figures.placement.nodeOf.length, figures.speed.length),
): QueueReplay {
  const { placement } = figures;
  const n = placement.nodeOf.length;
  const m = figures.speed.length;
  const { duration, timing } = scratch;
  // Only each target's own node's entry is read: j·m + nodeOf[j].
  for (let j = 0; j < n; j++) {
    const node = placement.nodeOf[j]!;
    const bytes = figures.uploadBytes[j]!;
    const upload = bytes > 0 ? bytes / figures.throughputBytesPerSecond[node]! : 0;
    duration[j * m + node] = figures.buildRefSeconds[j]! / figures.speed[node]! + upload;
  }
  const makespanSeconds = evaluateOrder(
    { m, preds: placement.deps, cost: duration },
    {
      order: placement.order,
      assign: placement.nodeOf,
      timing,
      nodeReadyAt: figures.startDelaySeconds,
      startLag: figures.startLagSeconds,
    },
  );
  return { makespanSeconds, startSeconds: timing.start, finishSeconds: timing.finish };
}
