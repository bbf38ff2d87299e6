import type { Delta } from './to-delta.js';

// The makespan change split by cause, as `RunDiff.explanation` carries it (docs/run-diff.md): one share per cause,
// largest first, `other` last, adding up to the measured change. Types only; built by buildMakespanExplanation.

interface CauseBase {
  /** Seconds of the makespan change this cause accounts for (B − A). */
  shareSeconds: number;
  /** Standard error of a sampled share; null when exact (or for `other`). */
  standardErrorSeconds: number | null;
  sentence: string;
}

export type CauseShare =
  | (CauseBase & {
      kind: 'build';
      target: string;
      /** Build seconds at speed 1: run.json wall time less modelled upload, × the node's configured speed. */
      buildSeconds: Delta;
      uploadBytes: Delta;
      /** On B's critical path. */
      onCriticalPath: boolean;
    })
  | (CauseBase & {
      kind: 'upload-throughput';
      node: string;
      bytesPerSecond: Delta;
      /** measured: bytes uploaded ÷ upload seconds; link: link_mbps × 10^6 (it uploaded nothing). */
      source: { a: string; b: string };
    })
  | (CauseBase & {
      kind: 'placement';
      /** Targets that ran on another node in B. */
      moved: { target: string; a: string; b: string }[];
      /** Nodes that ran targets they ran in both in another order. */
      reordered: string[];
      /** Targets whose waits (plan.json waitFor) differ. */
      waitsChanged: string[];
    })
  | (CauseBase & {
      kind: 'waiting';
      /** Nodes whose start delay differs. */
      startDelaySeconds: { node: string; a: number; b: number }[];
      /** Sum of the start lags the model does not explain, over the targets replayed. */
      startLagSeconds: Delta;
    })
  | (CauseBase & {
      kind: 'other';
      /** v(all B) − v(all A). */
      modelledSeconds: number;
      /** Targets left out of the replays (in one run only, or settled in one only). */
      leftOut: string[];
    });

export type CauseKind = CauseShare['kind'];

/** A cause before its sentence is written. */
export type CauseDraft = CauseShare extends infer C
  ? C extends CauseShare
    ? Omit<C, 'sentence'>
    : never
  : never;

export interface MakespanExplanation {
  method: {
    kind: 'exact' | 'sampled';
    /** Causes whose figure differs between A and B; the others have no share by construction. */
    causes: number;
    permutations: number | null;
    seed: number | null;
  };
  /** The makespan the diff reports (data.json), A → B. */
  actualSeconds: Delta;
  /** The replays with all of A's figures and all of B's. */
  modelSeconds: { a: number; b: number; delta: number };
  /** Replay − actual, per side. */
  modelErrorSeconds: { a: number; b: number };
  /** Largest |share| first, `other` last; they add up to actualSeconds.delta. */
  causes: CauseShare[];
  notes: string[];
}
