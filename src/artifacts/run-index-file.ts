import { z } from 'zod';
import { isServableStamp } from '../shared/is-servable-stamp.js';

// The run index's lines (docs/history.md): `<root>/.runs-index.jsonl`, one compact summary per run dir of a runs
// root, written and read by report/run-index.ts. Untrusted input like any run-dir file: every line is held to
// these schemas, and an entry only ever names a folder, one servable path segment.

export const RUN_INDEX_FILE = '.runs-index.jsonl';
export const RUN_INDEX_VERSION = 1;

/** One path segment serve would answer (isServableStamp): never a path, never hidden. */
const FolderSchema = z.string().refine(isServableStamp, 'not one plain path segment serve answers');

const Seconds = z.number().finite().nullable();

/** A target's figures: [name, status, build s, upload s, upload bytes, measured (started and ended)]. */
const TargetRowSchema = z.tuple([
  z.string().max(200),
  z.string().max(40),
  Seconds,
  Seconds,
  z.number().finite().nullable(),
  z.union([z.literal(0), z.literal(1)]),
]);

/** @internal */
export const RunIndexEntrySchema = z.object({
  version: z.literal(RUN_INDEX_VERSION),
  folder: FolderSchema,
  /** mtime:size of run.json, data.json and lane.txt when the entry was made; `-` for an absent file. */
  sig: z.string().max(200),
  stamp: z.string().max(255),
  lane: z.string().max(64),
  harness: z.string().max(40),
  arch: z.string().max(64).nullable(),
  namespace: z.string().max(255).nullable(),
  status: z.string().max(40),
  /** Start time for ordering: run.json's startedAtMs, else the stamp's time, else the folder's mtime. */
  startedAtMs: z.number().finite(),
  finishedAtMs: z.number().finite().nullable(),
  makespanSeconds: Seconds,
  plannedMakespanSeconds: Seconds,
  lowerBoundSeconds: Seconds,
  /** Figures the run's checks marked partial (run level). */
  partial: z.boolean(),
  forecast: z
    .object({
      banded: z.boolean(),
      percentile: z.number().finite().nullable(),
      outside: z.enum(['above', 'below']).nullable(),
      culprits: z.array(z.string().max(200)).max(50),
    })
    .nullable(),
  /** sccache hits / (hits + misses), cached steps / steps; null when the run has none. */
  sccacheHitRatio: z.number().finite().nullable(),
  cachedStepRatio: z.number().finite().nullable(),
  targets: z.array(TargetRowSchema).max(5000),
  /** Why the run could not be read (a short reason a viewer may see); null for a readable run. */
  damaged: z.string().max(300).nullable(),
});

export type RunIndexEntry = z.infer<typeof RunIndexEntrySchema>;

const RemovedLineSchema = z.object({ folder: FolderSchema, removed: z.literal(true) });

export const RunIndexLineSchema = z.union([RunIndexEntrySchema, RemovedLineSchema]);

/**
 * A line read only for where its run stands in time (listRuns orders a root's runs by it): an entry's folder and
 * start, or a removal. Lighter than the whole entry (a 10,000-run index is read by every `report` of a warm run).
 */
export const RunIndexStartLineSchema = z.union([
  RunIndexEntrySchema.pick({ version: true, folder: true, startedAtMs: true }),
  RemovedLineSchema,
]);
