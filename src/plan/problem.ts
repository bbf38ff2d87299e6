import { ConfigError } from '../shared/errors.js';
import { createMinHeap } from './min-heap.js';
import { toBuildSeconds, toExportSeconds, type PlanNode } from './cost-model.js';

// The packer's working form: targets and nodes as indices, costs as flat matrices (target-major), so the
// search loops touch typed arrays only. Targets are sorted by name, so index order is the tie-break order.

export interface PlanProblem {
  /** Target names, sorted; a target's index is its position here. */
  names: string[];
  nodes: PlanNode[];
  n: number;
  m: number;
  preds: number[][];
  succs: number[][];
  /** cost[j * m + i] = build + export of target j on node i, seconds. */
  cost: Float64Array;
  build: Float64Array;
  exportSeconds: Float64Array;
  /** Per target: seconds beyond build and export, the same on every node. */
  setup: Float64Array;
  /** A topological order, ties by name. */
  topo: number[];
  /** Node indices sorted by node name: the tie-break order when two nodes are equally good. */
  nodeOrder: number[];
  /** fits[j * m + i] = 1 when target j's measured memory peak fits node i (or either is unknown), else 0. */
  fits: Uint8Array;
  /** Per target: its measured memory peak in bytes; NaN when unknown. */
  memoryBytes: Float64Array;
}

export interface PlanGraph {
  targets: readonly string[];
  deps: Readonly<Record<string, readonly string[]>>;
}

export interface CostInput {
  buildSeconds: number | undefined;
  cacheBytes: number | undefined;
  /** Seconds beyond build and export on any node (target-costs `setup`); 0 when unknown. */
  setupSeconds?: number | undefined;
  /** The target's measured memory peak, bytes (target-costs `memory`); absent: unknown, it fits every node. */
  memoryBytes?: number | undefined;
}

export interface CreateProblemOptions {
  graph: PlanGraph;
  costs: ReadonlyMap<string, CostInput>;
  nodes: readonly PlanNode[];
}

function findInputErrors({ graph, costs, nodes }: CreateProblemOptions): string[] {
  const errors: string[] = [];
  if (nodes.length === 0) errors.push('no nodes to plan on. Fix: list at least one node in fleet.yaml.');
  for (const node of nodes) {
    if (!(node.linkMbps > 0))
      errors.push(`node ${node.name}: link_mbps must be > 0, got \`${node.linkMbps}\`.`);
    if (!(node.speed > 0)) errors.push(`node ${node.name}: speed must be > 0, got \`${node.speed}\`.`);
  }
  for (const target of graph.targets) {
    const cost = costs.get(target);
    if (cost?.buildSeconds === undefined || cost.cacheBytes === undefined) {
      errors.push(
        `target ${target}: needs both a build and a cache figure. Fix: add them to the target costs.`,
      );
    }
  }
  return errors;
}

/** Kahn's algorithm; ties by index (= name). Throws on a cycle. */
function toTopologicalOrder(
  preds: readonly (readonly number[])[],
  succs: readonly (readonly number[])[],
): number[] {
  const indegree = preds.map((list) => list.length);
  // Kahn's order, always taking the lowest ready index.
  const ready = createMinHeap((index) => index);
  indegree.forEach((count, index) => {
    if (count === 0) ready.push(index);
  });
  const order: number[] = [];
  while (ready.size > 0) {
    const next = ready.pop();
    order.push(next);
    for (const succ of succs[next] ?? []) {
      indegree[succ] = (indegree[succ] ?? 0) - 1;
      if (indegree[succ] === 0) ready.push(succ);
    }
  }
  if (order.length !== preds.length)
    throw new ConfigError('target graph', [
      'dependency cycle among the planned targets. Fix: break one `target:` link.',
    ]);
  return order;
}

function buildLinks(
  names: readonly string[],
  deps: PlanGraph['deps'],
): { preds: number[][]; succs: number[][] } {
  const index = new Map(names.map((name, i) => [name, i]));
  const preds = names.map(() => [] as number[]);
  const succs = names.map(() => [] as number[]);
  names.forEach((name, j) => {
    const list = [...new Set(deps[name] ?? [])].map((dep) => index.get(dep)).filter((i) => i !== undefined);
    for (const dep of list.sort((a, b) => a - b)) {
      preds[j]?.push(dep);
      succs[dep]?.push(j);
    }
  });
  return { preds, succs };
}

/** Does a target with this memory peak fit a node with this memory? Unknown on either side fits. */
function isMemoryFit(memoryBytes: number | undefined, nodeMemoryBytes: number | undefined): boolean {
  return memoryBytes === undefined || nodeMemoryBytes === undefined || memoryBytes <= nodeMemoryBytes;
}

function buildFits(names: readonly string[], options: CreateProblemOptions): Uint8Array {
  const m = options.nodes.length;
  const fits = new Uint8Array(names.length * m);
  const errors: string[] = [];
  names.forEach((name, j) => {
    const memory = options.costs.get(name)?.memoryBytes;
    options.nodes.forEach((node, i) => (fits[j * m + i] = isMemoryFit(memory, node.memoryBytes) ? 1 : 0));
    if (m > 0 && !fits.subarray(j * m, (j + 1) * m).includes(1))
      errors.push(
        `target ${name}: its measured memory peak ${formatGiB(memory!)} fits no node (${options.nodes.map((node) => `${node.name} ${formatGiB(node.memoryBytes!)}`).join(', ')}). Fix: give a node more memory_gb in fleet.yaml, or lower the target's \`memory\` line in the target costs if the peak was wrong.`,
      );
  });
  if (errors.length > 0) throw new ConfigError('plan inputs', errors);
  return fits;
}

/** Bytes as GiB for messages, e.g. `12.5 GiB`. */
export function formatGiB(bytes: number): string {
  return `${Number((bytes / 2 ** 30).toPrecision(3))} GiB`;
}

export function createProblem(options: CreateProblemOptions): PlanProblem {
  const errors = findInputErrors(options);
  if (errors.length > 0) throw new ConfigError('plan inputs', errors);
  const names = [...new Set(options.graph.targets)].sort();
  const nodes = [...options.nodes];
  const n = names.length;
  const m = nodes.length;
  const { preds, succs } = buildLinks(names, options.graph.deps);
  const build = new Float64Array(n * m);
  const exportSeconds = new Float64Array(n * m);
  const cost = new Float64Array(n * m);
  const setup = new Float64Array(n);
  names.forEach((name, j) => {
    const figures = options.costs.get(name);
    const target = { buildSeconds: figures?.buildSeconds ?? 0, cacheBytes: figures?.cacheBytes ?? 0 };
    setup[j] = figures?.setupSeconds ?? 0;
    nodes.forEach((node, i) => {
      build[j * m + i] = toBuildSeconds(target, node);
      exportSeconds[j * m + i] = toExportSeconds(target, node);
      cost[j * m + i] = (build[j * m + i] ?? 0) + (exportSeconds[j * m + i] ?? 0) + setup[j]!;
    });
  });
  const nodeOrder = nodes
    .map((_, i) => i)
    .sort((a, b) => (nodes[a]!.name < nodes[b]!.name ? -1 : nodes[a]!.name > nodes[b]!.name ? 1 : a - b));
  return {
    names,
    nodes,
    n,
    m,
    preds,
    succs,
    cost,
    build,
    exportSeconds,
    setup,
    topo: toTopologicalOrder(preds, succs),
    nodeOrder,
    fits: buildFits(names, options),
    memoryBytes: Float64Array.from(names, (name) => options.costs.get(name)?.memoryBytes ?? NaN),
  };
}

/** Cheapest cost of each target over all nodes. */
export function toMinCosts(problem: PlanProblem, cost: Float64Array = problem.cost): Float64Array {
  const out = new Float64Array(problem.n);
  for (let j = 0; j < problem.n; j++) {
    let best = Infinity;
    for (let i = 0; i < problem.m; i++) best = Math.min(best, cost[j * problem.m + i] ?? Infinity);
    out[j] = best;
  }
  return out;
}

/** One placement the memory rule forbade: the target's peak is over the node's memory. */
export interface MemoryMisfit {
  target: string;
  node: string;
  memoryBytes: number;
  nodeMemoryBytes: number;
}

/** Every (target, node) pair the memory rule forbids, by target then node name. */
export function findMemoryMisfits(problem: PlanProblem): MemoryMisfit[] {
  const out: MemoryMisfit[] = [];
  problem.names.forEach((target, j) => {
    for (const i of problem.nodeOrder) {
      if (problem.fits[j * problem.m + i]) continue;
      const node = problem.nodes[i]!;
      out.push({
        target,
        node: node.name,
        memoryBytes: problem.memoryBytes[j]!,
        nodeMemoryBytes: node.memoryBytes!,
      });
    }
  });
  return out;
}
