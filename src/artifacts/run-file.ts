import { z } from 'zod';

// run.json: written by the harnesses (cold, warm, bench) while a run is live and at finalize; read by
// report, serve, diff and costs. One schema for writer and reader.

export const RUN_VERSION = 1;

const HarnessSchema = z.enum(['cold', 'warm', 'bench']);
export type Harness = z.infer<typeof HarnessSchema>;

/** fixed: each node runs its plan queue in order; guided: an idle node may take another node's ready target (`--dispatch guided`). */
export const DispatchModeSchema = z.enum(['fixed', 'guided']);
export type DispatchMode = z.infer<typeof DispatchModeSchema>;

const TargetOutcomeSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('pending'), node: z.string() }),
  z.strictObject({ status: z.literal('running'), node: z.string(), startedAtMs: z.number() }),
  z.strictObject({
    status: z.literal('ok'),
    node: z.string(),
    startedAtMs: z.number(),
    finishedAtMs: z.number(),
    buildRef: z.string().optional().describe('buildx.build.ref from the metadata file'),
  }),
  z.strictObject({
    status: z.literal('failed'),
    node: z.string(),
    startedAtMs: z.number(),
    finishedAtMs: z.number(),
    exitCode: z.number().nullable(),
    error: z.string(),
    buildRef: z.string().optional(),
  }),
  z.strictObject({
    status: z.literal('interrupted'),
    node: z.string(),
    startedAtMs: z.number(),
    finishedAtMs: z.number().describe('When the cancelled build stopped.'),
    error: z.string(),
    buildRef: z
      .string()
      .optional()
      .describe('The cancelled build record BuildKit kept, with its partial trace.'),
  }),
  z.strictObject({
    status: z.literal('skipped'),
    node: z.string(),
    reason: z.string().describe('e.g. "dependency pytorch failed" or "interrupted"'),
  }),
]);
export type TargetOutcome = z.infer<typeof TargetOutcomeSchema>;

/** One piece of a log slice, in slice order: which file of the log's rotation chain the bytes came from. */
const LogSegmentSchema = z.strictObject({
  generation: z
    .number()
    .int()
    .nonnegative()
    .describe('0 = the file that was the log when the run started; +1 for each rotation during the run.'),
  source: z
    .enum(['remote', 'live'])
    .describe(
      'remote: read at the end of the run from remotePath; live: kept from the copy appended during the run, because no remote file holds these bytes any more.',
    ),
  remotePath: z
    .string()
    .describe(
      'remote: the file read (the log itself or a rotated sibling such as zot.jsonl.1.gz); live: the log the bytes were written to.',
    ),
  fromOffset: z.number().int().nonnegative().describe('Byte offset in that generation (decompressed).'),
  toOffset: z.number().int().nonnegative(),
});
export type LogSegment = z.infer<typeof LogSegmentSchema>;

const LogSliceSchema = z.strictObject({
  kind: z.enum(['sccache', 'registry']),
  /** File in the run dir: sccache.log, or zot.jsonl for the registry log (either format; see registryLogFormat). */
  file: z.string(),
  host: z.string(),
  remotePath: z.string(),
  /** Where the run window starts in the file that was the log at the start (the first segment's file). */
  startOffset: z.number().int().nonnegative(),
  /** Where it ends in the file that is the log at the end (the last segment's file; the same file without rotation). */
  endOffset: z.number().int().nonnegative(),
  /** Bytes in the slice: the sum of its segments. */
  sizeBytes: z.number().int().nonnegative(),
  /** What the slice is missing and why (bytes, which file); absent when nothing is known to be missing. */
  warning: z.string().optional(),
  /** The pieces of the slice across rotations (absent in run.json files written before rotation was handled). */
  segments: z.array(LogSegmentSchema).optional(),
  /** Times the log host was unreachable during the run (the capture reconnected; nothing lost when there is no warning). */
  outages: z.array(z.string()).optional(),
});
export type LogSliceEntry = z.infer<typeof LogSliceSchema>;

/** One measurement of a host's clock against this workstation's: offset = host clock − workstation clock. */
const ClockReadingSchema = z.strictObject({
  host: z.string().describe('node name, or the log host as user@host:port'),
  role: z.enum(['node', 'log host']),
  source: z.enum(['node_time_seconds', 'ssh date']),
  phase: z.enum(['before', 'after']).describe('before the measured run started, or after it ended'),
  offsetMs: z.number().nullable().describe('host clock − workstation clock; null when the reading failed'),
  uncertaintyMs: z.number().nullable().describe('half the round trip of the reading'),
  error: z.string().optional(),
});
export type ClockReading = z.infer<typeof ClockReadingSchema>;

/** A builder's clock as its build records place it against this workstation's launches and exits of its bakes. */
const BuilderClockSchema = z.strictObject({
  node: z.string(),
  offsetMs: z.number().describe('builder clock − workstation clock; traces are shifted by −offsetMs'),
  uncertaintyMs: z.number(),
  source: z
    .enum(['node clock', 'build records', 'workstation clock'])
    .describe(
      'node clock: its node_exporter reading fits the records; workstation clock: unmeasured, and the records allow 0',
    ),
  /** Targets whose record bounds the offset. */
  records: z.number().int().nonnegative(),
});
export type BuilderClock = z.infer<typeof BuilderClockSchema>;

/** A file the run wrote, as it was written: its size and SHA-256, hashed on the bytes' way to disk. */
const RunFileRecordSchema = z.strictObject({
  sizeBytes: z.number().int().nonnegative(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .meta({ examples: ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'] }),
  traceIds: z
    .array(z.string())
    .optional()
    .describe('trace-<target>.json: the trace IDs its spans carried when it was saved'),
});
export type RunFileRecord = z.infer<typeof RunFileRecordSchema>;
/** The refs one target pushes to: the report splits its trace's uploads into image and cache by them. */
const UploadRefsSchema = z.strictObject({
  image: z.array(z.string()).describe('Image refs (bake tags and image outputs), in the run namespace.'),
  cache: z
    .array(z.string())
    .describe('Registry cache-to refs; none when the run cleared the cache export (cold, bench).'),
});
export type UploadRefs = z.infer<typeof UploadRefsSchema>;

const Sha256Schema = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta({ examples: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'] });

/**
 * The bake graph a run planned with (graph/digest-bake-graph.ts): `costs` compares it with the current bake print
 * and refuses a run of another bake definition.
 */
const BakeDigestSchema = z.strictObject({
  sha256: Sha256Schema.describe("SHA-256 over the planned targets' digests, by name."),
  targets: z
    .record(z.string(), Sha256Schema)
    .describe(
      "Per planned target: SHA-256 of its whole bake-print entry (keys sorted) and its target: contexts' digests.",
    ),
});

const SampleSourceSchema = z.strictObject({
  source: z.enum(['node_exporter', 'prometheus']),
  intervalMs: z.number().positive(),
  prometheusUrl: z.string().optional(),
});

/** What changes when a builder is recreated or pruned, read before the measured run (docs/cache-debug.md). */
const BuilderIdentitySchema = z.strictObject({
  buildkitVersion: z.string().nullable().describe("`buildx inspect`: the builder's BuildKit version"),
  cacheRecords: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .describe('`buildx du --verbose`: build cache records'),
  cacheBytes: z
    .number()
    .nonnegative()
    .nullable()
    .describe('`buildx du`: their total size (decimal units as printed)'),
  oldestRecordCreatedAt: z
    .string()
    .nullable()
    .describe(
      'ISO time its oldest cache record was created: moves forward when the builder is recreated or pruned',
    ),
  error: z.string().optional().describe('why it could not be read'),
});
export type BuilderIdentity = z.infer<typeof BuilderIdentitySchema>;

/** What one builder recorded for explaining cache misses (docs/cache-debug.md), checked after the run's last build. */
const BuilderEvidenceSchema = z.strictObject({
  node: z.string(),
  builder: z.string(),
  cacheDebug: z
    .strictObject({
      status: z
        .enum(['saved', 'off', 'empty', 'unavailable', 'unreachable', 'too-large', 'invalid'])
        .describe(
          'saved: cache-debug-<node>.json holds its /debug/cache/all; off: fleet.yaml sets no buildkit_debug; empty: buildkitd answered with no records (started without --save-cache-debug); unavailable: it serves no /debug/cache/all (BuildKit < 0.24.0); unreachable: nothing answered at the address over the ssh link; too-large: over the cap; invalid: not the records',
        ),
      address: z.string().optional().describe('fleet.yaml buildkit_debug, as the node sees it'),
      file: z.string().optional().describe('cache-debug-<node>.json (status saved)'),
      sizeBytes: z.number().int().nonnegative().optional(),
      records: z.number().int().nonnegative().optional().describe('top-level records in the database'),
      note: z
        .string()
        .optional()
        .describe('what is missing and the setting that gives it (every status but saved)'),
    })
    .describe('The cache-key debug database (buildkitd --save-cache-debug, served at --debugaddr).'),
  identity: BuilderIdentitySchema.nullable().describe(
    'The builder before the measured run; null when the run did not get that far.',
  ),
});
export type BuilderEvidence = z.infer<typeof BuilderEvidenceSchema>;

/** Per target, the provenance the run kept and where (docs/cache-debug.md, "What a run saves"). */
const TargetProvenanceSchema = z.strictObject({
  mode: z
    .enum(['max', 'min', 'none'])
    .describe(
      'max: the LLB (buildConfig) and BuildKit metadata are there; min: the provenance without them (attest mode=min, or a buildx too old to read the predicate); none: no provenance',
    ),
  source: z
    .enum(['metadata', 'attachment'])
    .describe(
      'metadata: meta-<target>.json `buildx.build.provenance` (SLSA v0.2 shape); attachment: provenance-<target>.json, the predicate read from the build record with `buildx history inspect attachment`, when the metadata file lacked it',
    ),
  file: z.string().describe('meta-<target>.json or provenance-<target>.json'),
  slsa: z
    .enum(['v0.2', 'v1'])
    .describe(
      'The predicate’s shape: v0.2 (buildConfig, invocation.parameters.args, metadata["https://mobyproject.org/buildkit@v1#metadata"]) or v1 (buildDefinition.internalParameters.buildConfig, buildDefinition.externalParameters.request.args, runDetails.metadata.buildkit_metadata)',
    ),
});
export type TargetProvenance = z.infer<typeof TargetProvenanceSchema>;

const RunEvidenceSchema = z.strictObject({
  builders: z.array(BuilderEvidenceSchema),
  provenance: z.record(z.string(), TargetProvenanceSchema).describe('target → the provenance kept for it'),
  notes: z
    .array(z.string())
    .describe('Evidence the run could not record, each naming the setting that would give it.'),
});
export type RunEvidence = z.infer<typeof RunEvidenceSchema>;

export const RunFileSchema = z.strictObject({
  version: z.literal(RUN_VERSION),
  stamp: z.string(),
  harness: HarnessSchema,
  /** Registry namespace the run pushed into (e.g. rocm-coldrun). */
  namespace: z.string(),
  arch: z.string(),
  /** sccache key prefix the run used (a cold run has its own). */
  sccachePrefix: z.string(),
  /** The live sccache prefix of the fleet, for telling the two apart in the cache log. */
  liveSccachePrefix: z.string(),
  fleetPath: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'interrupted']),
  startedAtMs: z.number(),
  /** When the measured run began (after preflight and bootstrap). */
  measuredStartedAtMs: z.number().nullable(),
  finishedAtMs: z.number().nullable(),
  exitCode: z.number().nullable(),
  nodes: z.array(
    z.strictObject({
      name: z.string(),
      builder: z.string(),
      address: z.string().optional(),
      linkMbps: z.number(),
      speed: z.number(),
      /** fleet.yaml memory_gb × 10^9 (absent when not set, and in runs recorded before it was kept). */
      memoryBytes: z.number().positive().optional(),
    }),
  ),
  targets: z.record(z.string(), TargetOutcomeSchema),
  /** Images built and pushed before the measured run (not sampled). */
  bootstrapped: z.array(z.string()),
  /** Each bootstrap build, when and where (absent in runs recorded before it was kept). */
  bootstrap: z
    .array(
      z.strictObject({
        target: z.string(),
        node: z.string(),
        startedAtMs: z.number(),
        finishedAtMs: z.number(),
      }),
    )
    .optional(),
  registryCachePatterns: z.array(z.string()),
  registryLogFormat: z.enum(['zot', 'distribution']),
  warnings: z.array(z.string()),
  // Added by the harness (all optional, so older run.json files still read):
  /** cold = no caches (cold, and bench: one target at a time, own namespace); warm = caches on. */
  mode: z.enum(['cold', 'warm']).optional(),
  /** Placement strategy of plan.json. */
  strategy: z.string().optional(),
  /** How targets were dispatched; under guided a target's `node` (where it ran) may differ from plan.json's. Absent = fixed. */
  dispatch: DispatchModeSchema.optional(),
  /** The cache log slices in the run dir: byte offsets of the run window in the remote file. */
  logs: z.array(LogSliceSchema).optional(),
  /** SIGINT or SIGTERM when the run was interrupted. */
  interruptedBy: z.string().optional(),
  /** Clock offsets of the nodes (node_exporter) and log hosts (ssh), measured before and after the run. */
  clocks: z.array(ClockReadingSchema).optional(),
  /** Each builder's clock, estimated at finalize from its build records (the report aligns traces by it). */
  builderClocks: z.array(BuilderClockSchema).optional(),
  /** How samples.jsonl was taken: our scrapes of each node_exporter, or queries to the fleet's Prometheus. */
  samples: SampleSourceSchema.optional(),
  /**
   * Every file the run wrote (plan.json, traces, status streams, metadata, samples, log slices, artifacts.txt), by
   * name in the run dir: size and SHA-256 as written. Absent in runs recorded before digests were kept.
   */
  files: z.record(z.string(), RunFileRecordSchema).optional(),
  /** Each target's in-run dependencies as the run used them (its plan), so measured figures never read plan.json. */
  deps: z.record(z.string(), z.array(z.string())).optional(),
  /** Per target, the image and cache refs its bake pushes to (absent in runs recorded before issue 35). */
  uploadRefs: z.record(z.string(), UploadRefsSchema).optional(),
  /** What the builders recorded for explaining misses (absent in runs recorded before issue 37). */
  evidence: RunEvidenceSchema.optional(),
  /** The bake graph the run planned with, as digests (absent in runs recorded before issue 36's item 2). */
  bake: BakeDigestSchema.optional(),
  /** Where an imported run came from when rocm-perf did not record it itself (docs/dockerbuild.md). */
  imported: z
    .strictObject({
      from: z
        .literal('dockerbuild')
        .describe('a `buildx history export` file: build records only (no samples, cache logs or plan)'),
      file: z.string().describe('The file as `rocm-perf import` was given it.'),
      sha256: Sha256Schema,
      records: z
        .array(z.strictObject({ ref: z.string(), target: z.string() }))
        .describe('Each build record and the target it became, in the file’s order.'),
    })
    .optional(),
});
export type RunFile = z.infer<typeof RunFileSchema>;
