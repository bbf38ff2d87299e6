import {
  buildExplainInputs,
  PLACEMENT,
  toBuildPlayer,
  createCoalitionValue,
  toUploadPlayer,
  WAITING,
  type ExplainInputs,
} from './build-explain-inputs.js';
import type { SideFigures } from './build-side-figures.js';
import { buildShapleyShares, type ShapleyShares } from './build-shapley-shares.js';
import { renderCauseSentence } from './render-cause-sentence.js';
import type { CauseDraft, CauseKind, MakespanExplanation } from './makespan-explanation.js';
import { roundTo, toDelta } from './to-delta.js';

export type { CauseShare, MakespanExplanation } from './makespan-explanation.js';

type Draft = CauseDraft;

// The makespan change of two runs split by cause: Shapley values of counterfactual replays (docs/run-diff.md).
// v(S) replays fixed per-node queues with B's figures for the causes in S and A's for the rest; each cause's
// share is its marginal effect averaged over every order the causes could be switched from A to B, so the shares
// add up to v(all B) − v(all A) whatever order the causes are listed in. `other` is the actual change minus that,
// so all the shares add up to the actual makespan change. Pure.

export interface BuildMakespanExplanationOptions {
  a: SideFigures;
  b: SideFigures;
  actualSeconds: { a: number; b: number };
  /** B's critical path, for "on the critical path". */
  criticalPathB: readonly string[];
  exactMaxPlayers?: number;
  permutations?: number;
  seed?: number;
}

type Share = { shareSeconds: number; standardErrorSeconds: number | null };

function toShare(shares: ShapleyShares, player: string): Share {
  const share = shares.shares.get(player);
  return {
    shareSeconds: roundTo(share?.seconds ?? 0),
    standardErrorSeconds: share?.standardError == null ? null : roundTo(share.standardError),
  };
}

function buildTargetCauses(inputs: ExplainInputs, shares: ShapleyShares, pathB: readonly string[]): Draft[] {
  return inputs.targets.flatMap((target, j) => {
    if (!shares.shares.has(toBuildPlayer(target))) return [];
    return [
      {
        kind: 'build' as const,
        target,
        ...toShare(shares, toBuildPlayer(target)),
        buildSeconds: toDelta(roundTo(inputs.a.buildRefSeconds[j]!), roundTo(inputs.b.buildRefSeconds[j]!)),
        uploadBytes: toDelta(inputs.a.uploadBytes[j], inputs.b.uploadBytes[j]),
        onCriticalPath: pathB.includes(target),
      },
    ];
  });
}

function buildThroughputCauses(inputs: ExplainInputs, shares: ShapleyShares): Draft[] {
  return inputs.nodes.flatMap((node, i) => {
    if (!shares.shares.has(toUploadPlayer(node))) return [];
    const [a, b] = [inputs.nodeFigures.a[i]!, inputs.nodeFigures.b[i]!];
    return [
      {
        kind: 'upload-throughput' as const,
        node,
        ...toShare(shares, toUploadPlayer(node)),
        bytesPerSecond: toDelta(roundTo(a.throughputBytesPerSecond), roundTo(b.throughputBytesPerSecond)),
        source: { a: a.throughputSource, b: b.throughputSource },
      },
    ];
  });
}

function findReordered(inputs: ExplainInputs): string[] {
  const queueOf = (side: 'a' | 'b', i: number) =>
    inputs[side].placement.order.filter((j) => inputs[side].placement.nodeOf[j] === i);
  return inputs.nodes.filter((_, i) => {
    const [qa, qb] = [queueOf('a', i), queueOf('b', i)];
    const inBoth = qb.filter((j) => qa.includes(j));
    return qa.filter((j) => qb.includes(j)).some((j, k) => inBoth[k] !== j);
  });
}

function buildPlacementCause(inputs: ExplainInputs, shares: ShapleyShares): Draft[] {
  if (!shares.shares.has(PLACEMENT)) return [];
  const { a, b } = inputs;
  const sameDeps = (j: number) =>
    [...a.placement.deps[j]!].sort().join() === [...b.placement.deps[j]!].sort().join();
  return [
    {
      kind: 'placement',
      ...toShare(shares, PLACEMENT),
      moved: inputs.targets.flatMap((target, j) =>
        a.placement.nodeOf[j] === b.placement.nodeOf[j]
          ? []
          : [{ target, a: inputs.nodes[a.placement.nodeOf[j]!]!, b: inputs.nodes[b.placement.nodeOf[j]!]! }],
      ),
      reordered: findReordered(inputs),
      waitsChanged: inputs.targets.filter((_, j) => !sameDeps(j)),
    },
  ];
}

function buildWaitingCause(inputs: ExplainInputs, shares: ShapleyShares): Draft[] {
  if (!shares.shares.has(WAITING)) return [];
  const { a, b } = inputs;
  const sum = (lags: Float64Array) => roundTo(lags.reduce((total, lag) => total + lag, 0));
  return [
    {
      kind: 'waiting',
      ...toShare(shares, WAITING),
      startDelaySeconds: inputs.nodes.flatMap((node, i) =>
        roundTo(a.startDelaySeconds[i]!) === roundTo(b.startDelaySeconds[i]!)
          ? []
          : [{ node, a: roundTo(a.startDelaySeconds[i]!), b: roundTo(b.startDelaySeconds[i]!) }],
      ),
      startLagSeconds: toDelta(sum(a.startLagSeconds), sum(b.startLagSeconds)),
    },
  ];
}

/** Largest |share| first; `other` (what is left over) last. */
function compareCauses(x: Draft, y: Draft): number {
  if ((x.kind === 'other') !== (y.kind === 'other')) return x.kind === 'other' ? 1 : -1;
  const rank: Record<CauseKind, number> = {
    build: 0,
    'upload-throughput': 1,
    placement: 2,
    waiting: 3,
    other: 4,
  };
  const subject = (c: Draft) => ('target' in c ? c.target : 'node' in c ? c.node : '');
  return (
    Math.abs(y.shareSeconds) - Math.abs(x.shareSeconds) ||
    rank[x.kind] - rank[y.kind] ||
    subject(x).localeCompare(subject(y))
  );
}

function buildNotes(
  inputs: ExplainInputs,
  shares: ShapleyShares,
  actual: { a: number; b: number },
): string[] {
  const notes: string[] = [];
  if (inputs.leftOut.length > 0)
    notes.push(
      `left out of the replays, so their effect is in "other": ${inputs.leftOut.join(', ')} (in one run only, or finished in one only)`,
    );
  for (const [label, model, real] of [
    ['A', shares.empty, actual.a],
    ['B', shares.full, actual.b],
  ] as const)
    if (Math.abs(model - real) > Math.max(1, 0.05 * real))
      notes.push(
        `the replay of ${label} with its own figures gives ${roundTo(model, 1)} s against ${roundTo(real, 1)} s measured: read the shares as rough`,
      );
  return notes;
}

/** Throws a UsageError when a run's queues and waits cannot be replayed. */
export function buildMakespanExplanation(options: BuildMakespanExplanationOptions): MakespanExplanation {
  const inputs = buildExplainInputs({ a: options.a, b: options.b });
  const shares = buildShapleyShares({
    players: inputs.players,
    value: createCoalitionValue(inputs),
    exactMaxPlayers: options.exactMaxPlayers,
    permutations: options.permutations,
    seed: options.seed,
  });
  const actualSeconds = toDelta(roundTo(options.actualSeconds.a), roundTo(options.actualSeconds.b));
  const drafts: Draft[] = [
    ...buildTargetCauses(inputs, shares, options.criticalPathB),
    ...buildThroughputCauses(inputs, shares),
    ...buildPlacementCause(inputs, shares),
    ...buildWaitingCause(inputs, shares),
  ];
  const modelled = roundTo(drafts.reduce((total, c) => total + c.shareSeconds, 0));
  drafts.push({
    kind: 'other',
    shareSeconds: roundTo(actualSeconds.delta! - modelled),
    standardErrorSeconds: null,
    modelledSeconds: roundTo(shares.full - shares.empty),
    leftOut: inputs.leftOut,
  });
  return {
    method: {
      kind: shares.method,
      causes: inputs.players.length,
      permutations: shares.permutations,
      seed: shares.seed,
    },
    actualSeconds,
    modelSeconds: {
      a: roundTo(shares.empty),
      b: roundTo(shares.full),
      delta: roundTo(shares.full - shares.empty),
    },
    modelErrorSeconds: {
      a: roundTo(shares.empty - options.actualSeconds.a),
      b: roundTo(shares.full - options.actualSeconds.b),
    },
    causes: drafts
      .sort(compareCauses)
      .map((c) => ({ ...c, sentence: renderCauseSentence(c, actualSeconds) })),
    notes: buildNotes(inputs, shares, options.actualSeconds),
  };
}
