import type { DataFile } from '../artifacts/index.js';
import type { SideFigures } from '../diff/index.js';

// What the advisor reads, as values: the run (its model, its replayable figures, its provenance and pushes) and the
// provenance of the lane's earlier runs. Built by read-advise-input.ts; every rule takes it whole. Pure types.

/** One input image a build resolved: the tag as written and the digest it resolved to (provenance `materials`). */
export interface MaterialFact {
  /** `host/repository:tag` (or `…@sha256:…` when pinned). */
  ref: string;
  digest: string;
  /** Referenced by digest already: it cannot move. */
  pinned: boolean;
}

/** What a target's provenance (meta-TARGET.json, `buildx.build.provenance`) says about its inputs. */
export interface ProvenanceFact {
  /** `build-arg:NAME` → value, as `invocation.parameters.args` holds them, without the prefix. */
  args: Record<string, string>;
  materials: MaterialFact[];
}

/** A blob PUT of one target's export, from its trace: which digest went to which repository, and when. */
export interface BlobPush {
  digest: string;
  repository: string;
  bytes: number | null;
  kind: 'image' | 'cache' | 'unknown';
  startMs: number;
  endMs: number;
}

/** One earlier run of the same lane, harness and arch. */
export interface LaneRunFact {
  stamp: string;
  provenance: ReadonlyMap<string, ProvenanceFact>;
}

export interface AdviseInput {
  stamp: string;
  model: DataFile;
  /** The run's figures as diff replays them; null with why when it cannot be replayed (no run.json or plan.json). */
  side: SideFigures | null;
  sideMissing: string | null;
  provenance: ReadonlyMap<string, ProvenanceFact>;
  pushes: ReadonlyMap<string, readonly BlobPush[]>;
  /** Per target: seconds of its steps that ran (the union of its uncached step spans), from its trace. */
  uncachedSeconds: ReadonlyMap<string, number>;
  /** Blob digest → repositories the registry log saw it written to (one entry per write); null without the log. */
  registryBlobWrites: ReadonlyMap<string, readonly string[]> | null;
  /** The lane's earlier runs, newest first (at most --runs − 1). */
  history: readonly LaneRunFact[];
}
