import { UsageError } from '../shared/errors.js';

// A deterministic replay of fixed per-node queues, for the makespan explanation's counterfactuals. Pure. Each
// node runs its queue in order; a target starts at max(finish of the previous target on its node, or the node's
// start delay for its first; finish of everything it waits for) + its start lag, and takes
// buildRef / speed + bytes / throughput on the node it is queued on. With fixed queues and no other contention the
// event order is a topological order of (queue predecessor, waitFor) edges, computed once per placement.

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

function toOrder(prev: Int32Array, deps: readonly (readonly number[])[]): number[] {
  const n = prev.length;
  const next: number[][] = Array.from({ length: n }, () => []);
  const pending = new Int32Array(n);
  for (let j = 0; j < n; j++) {
    for (const before of prev[j]! >= 0 ? [...deps[j]!, prev[j]!] : deps[j]!) {
      next[before]!.push(j);
      pending[j]!++;
    }
  }
  const order: number[] = [];
  const ready = [...pending.keys()].filter((j) => pending[j] === 0);
  while (ready.length > 0) {
    const j = ready.shift()!;
    order.push(j);
    for (const k of next[j]!) if (--pending[k]! === 0) ready.push(k);
  }
  return order;
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
  const order = toOrder(prev, deps);
  if (order.length < targets.length)
    throw new UsageError(
      `cannot replay the queues: queue order and waits form a cycle among ${targets.filter((_, j) => !order.includes(j)).join(', ')}`,
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

export function simulateQueues(figures: QueueFigures): QueueReplay {
  const { placement } = figures;
  const n = placement.nodeOf.length;
  const startSeconds = new Float64Array(n);
  const finishSeconds = new Float64Array(n);
  let makespanSeconds = 0;
  for (const j of placement.order) {
    const node = placement.nodeOf[j]!;
    const prev = placement.prev[j]!;
    let ready = prev >= 0 ? finishSeconds[prev]! : figures.startDelaySeconds[node]!;
    for (const d of placement.deps[j]!) ready = Math.max(ready, finishSeconds[d]!);
    const start = ready + figures.startLagSeconds[j]!;
    const bytes = figures.uploadBytes[j]!;
    const upload = bytes > 0 ? bytes / figures.throughputBytesPerSecond[node]! : 0;
    startSeconds[j] = start;
    finishSeconds[j] = start + figures.buildRefSeconds[j]! / figures.speed[node]! + upload;
    makespanSeconds = Math.max(makespanSeconds, finishSeconds[j]);
  }
  return { makespanSeconds, startSeconds, finishSeconds };
}
