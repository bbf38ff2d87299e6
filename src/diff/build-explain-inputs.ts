import type { NodeFigures, SideFigures } from './build-side-figures.js';
import {
  buildQueuePlacement,
  createQueueScratch,
  simulateQueues,
  type QueueFigures,
  type QueuePlacement,
} from './simulate-queues.js';

// The figures of runs A and B side by side over the targets both settled and the nodes either knew, indexed for
// the counterfactual replays, with the causes (players) whose figure differs between them. Pure.
//
// A player is one cause: `build:<target>` (its build seconds at speed 1 and its upload bytes),
// `upload:<node>` (the node's upload throughput), `placement` (which node ran what in which order, and what each
// target waited for) and `waiting` (node start delays and target start lags). v(S) replays with B's figures for the
// players in S and A's for the rest.

export const PLACEMENT = 'placement';
export const WAITING = 'waiting';
export const toBuildPlayer = (target: string) => `build:${target}`;
export const toUploadPlayer = (node: string) => `upload:${node}`;

interface SideArrays {
  buildRefSeconds: Float64Array;
  uploadBytes: Float64Array;
  startLagSeconds: Float64Array;
  throughputBytesPerSecond: Float64Array;
  startDelaySeconds: Float64Array;
  placement: QueuePlacement;
}

export interface ExplainInputs {
  targets: string[];
  nodes: string[];
  /** Per node: the configured speed used on both sides (A's, else B's, else 1). */
  speed: Float64Array;
  a: SideArrays;
  b: SideArrays;
  nodeFigures: { a: NodeFigures[]; b: NodeFigures[] };
  /** Targets left out of the replays: in one run only, or settled (ok or failed) in one run only. */
  leftOut: string[];
  players: string[];
}

/** Equal within a relative 1e-9: figures derived by the same arithmetic from equal inputs. */
function isSame(x: number, y: number): boolean {
  return x === y || Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
}

function pickNode(side: SideFigures, other: SideFigures, node: string): NodeFigures {
  const own = side.nodes[node] ?? other.nodes[node];
  if (own) return own;
  return {
    speed: null,
    linkMbps: null,
    uploadedBytes: 0,
    uploadSeconds: 0,
    throughputBytesPerSecond: Infinity,
    throughputSource: 'none',
    startDelaySeconds: 0,
  };
}

function toSideArrays(
  side: SideFigures,
  {
    targets,
    nodes,
    speed,
    figures,
  }: { targets: string[]; nodes: string[]; speed: Float64Array; figures: NodeFigures[] },
): SideArrays {
  const placement = buildQueuePlacement({ targets, nodes, queues: side.queues, waitFor: side.waitFor });
  const pick = (key: 'uploadBytes' | 'startLagSeconds') =>
    Float64Array.from(targets, (name) => side.targets[name]![key]);
  return {
    buildRefSeconds: Float64Array.from(
      targets,
      (name, j) => side.targets[name]!.buildSeconds * speed[placement.nodeOf[j]!]!,
    ),
    uploadBytes: pick('uploadBytes'),
    startLagSeconds: pick('startLagSeconds'),
    throughputBytesPerSecond: Float64Array.from(figures, (f) => f.throughputBytesPerSecond),
    startDelaySeconds: Float64Array.from(figures, (f) => f.startDelaySeconds),
    placement,
  };
}

function isSamePlacement(x: QueuePlacement, y: QueuePlacement): boolean {
  return x.nodeOf.every((node, j) => {
    const [dx, dy] = [[...x.deps[j]!].sort(), [...y.deps[j]!].sort()];
    return (
      node === y.nodeOf[j] &&
      x.prev[j] === y.prev[j] &&
      dx.length === dy.length &&
      dx.every((d, k) => d === dy[k])
    );
  });
}

function findPlayers(inputs: Omit<ExplainInputs, 'players'>): string[] {
  const { a, b } = inputs;
  const differs = (x: Float64Array, y: Float64Array, i: number) => !isSame(x[i]!, y[i]!);
  const players = inputs.targets.flatMap((name, j) =>
    differs(a.buildRefSeconds, b.buildRefSeconds, j) || differs(a.uploadBytes, b.uploadBytes, j)
      ? [toBuildPlayer(name)]
      : [],
  );
  inputs.nodes.forEach((node, i) => {
    if (differs(a.throughputBytesPerSecond, b.throughputBytesPerSecond, i))
      players.push(toUploadPlayer(node));
  });
  if (!isSamePlacement(a.placement, b.placement)) players.push(PLACEMENT);
  const waits =
    inputs.targets.some((_, j) => differs(a.startLagSeconds, b.startLagSeconds, j)) ||
    inputs.nodes.some((_, i) => differs(a.startDelaySeconds, b.startDelaySeconds, i));
  if (waits) players.push(WAITING);
  return players;
}

/** Throws a UsageError when a run's queues and waits cannot be replayed (a cycle). */
export function buildExplainInputs({ a, b }: { a: SideFigures; b: SideFigures }): ExplainInputs {
  const names = (side: SideFigures) => Object.keys(side.targets);
  const targets = names(a)
    .filter((name) => b.targets[name] !== undefined)
    .sort();
  const leftOut = [...new Set([...names(a), ...names(b)])].filter((name) => !targets.includes(name)).sort();
  const nodes = [...new Set([...Object.keys(a.nodes), ...Object.keys(b.nodes)])].sort();
  const figures = {
    a: nodes.map((node) => pickNode(a, b, node)),
    b: nodes.map((node) => pickNode(b, a, node)),
  };
  const speed = Float64Array.from(nodes, (_, i) => {
    const configured = figures.a[i]!.speed ?? figures.b[i]!.speed;
    return configured !== null && configured > 0 ? configured : 1;
  });
  const inputs = {
    targets,
    nodes,
    speed,
    a: toSideArrays(a, { targets, nodes, speed, figures: figures.a }),
    b: toSideArrays(b, { targets, nodes, speed, figures: figures.b }),
    nodeFigures: figures,
    leftOut,
  };
  return { ...inputs, players: findPlayers(inputs) };
}

/**
 * v(S) as a function: the replay's makespan with B's figures for the players in S and A's for the rest. Buffers
 * are allocated once; each call fills them and replays.
 */
export function createCoalitionValue(inputs: ExplainInputs): (members: ReadonlySet<string>) => number {
  const { a, b } = inputs;
  const buildPlayers = inputs.targets.map(toBuildPlayer);
  const uploadPlayers = inputs.nodes.map(toUploadPlayer);
  const figures: QueueFigures = {
    placement: a.placement,
    buildRefSeconds: new Float64Array(inputs.targets.length),
    uploadBytes: new Float64Array(inputs.targets.length),
    startLagSeconds: a.startLagSeconds,
    speed: inputs.speed,
    throughputBytesPerSecond: new Float64Array(inputs.nodes.length),
    startDelaySeconds: a.startDelaySeconds,
  };
  const scratch = createQueueScratch(inputs.targets.length, inputs.nodes.length);
  return (members) => {
    buildPlayers.forEach((player, j) => {
      const side = members.has(player) ? b : a;
      [figures.buildRefSeconds[j], figures.uploadBytes[j]] = [side.buildRefSeconds[j]!, side.uploadBytes[j]!];
    });
    uploadPlayers.forEach((player, i) => {
      figures.throughputBytesPerSecond[i] = (members.has(player) ? b : a).throughputBytesPerSecond[i]!;
    });
    const waiting = members.has(WAITING) ? b : a;
    [figures.startLagSeconds, figures.startDelaySeconds] = [
      waiting.startLagSeconds,
      waiting.startDelaySeconds,
    ];
    figures.placement = (members.has(PLACEMENT) ? b : a).placement;
    return simulateQueues(figures, scratch).makespanSeconds;
  };
}
