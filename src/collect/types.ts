import { z } from 'zod';

// The collectors' shared vocabulary: every parser returns records plus StreamStats, and the
// report, the harness and `contracts` read these types. Changing a shape here is a contract change.

/** What one parser saw in one input stream. A stream with bytes but zero records must be surfaced. */
export interface StreamStats {
  /** File name or label of the stream, e.g. `zot.jsonl`. */
  source: string;
  bytes: number;
  lines: number;
  records: number;
  /** Lines deliberately ignored (not HTTP, not in window, overhead …), by reason. */
  skipped: number;
  skippedByReason: Record<string, number>;
  /** Lines that looked like they should parse but did not (malformed, truncated, invalid values). */
  rejected: number;
  /** Up to a few examples of rejected lines: 1-based line number and why. */
  rejectedExamples: { line: number; reason: string }[];
}

export function createStreamStats(source: string): StreamStats {
  return {
    source,
    bytes: 0,
    lines: 0,
    records: 0,
    skipped: 0,
    skippedByReason: {},
    rejected: 0,
    rejectedExamples: [],
  };
}

/** Loud warnings a stream deserves: bytes but no records, or many rejected lines. Never a silent 0. */
export function findStreamWarnings(stats: StreamStats): string[] {
  const warnings: string[] = [];
  if (stats.bytes > 0 && stats.records === 0) {
    const why = Object.entries(stats.skippedByReason)
      .map(([reason, count]) => `${count} ${reason}`)
      .join(', ');
    warnings.push(
      `${stats.source}: read ${stats.bytes} bytes in ${stats.lines} lines but found no records` +
        ` (${stats.rejected} rejected${why ? `, skipped: ${why}` : ''}); the producer's format may have changed`,
    );
  } else if (stats.rejected > 0 && stats.rejected >= stats.records) {
    warnings.push(`${stats.source}: ${stats.rejected} lines rejected against ${stats.records} records`);
  }
  return warnings;
}

// ---- node_exporter samples (samples.jsonl: one JSON line per node per scrape) ----

export const SAMPLES_VERSION = 1;

export const SampleOkSchema = z.strictObject({
  version: z.literal(SAMPLES_VERSION),
  node: z.string(),
  tsMs: z.number(),
  ok: z.literal(true),
  /** Null on the first scrape of a node (rates need two scrapes) or after a counter reset. */
  cpuBusyPct: z.number().nullable(),
  memUsedPct: z.number().nullable(),
  diskReadBps: z.number().nullable(),
  diskWriteBps: z.number().nullable(),
  netRxBps: z.number().nullable(),
  netTxBps: z.number().nullable(),
  load1: z.number().nullable(),
});

export const SampleGapSchema = z.strictObject({
  version: z.literal(SAMPLES_VERSION),
  node: z.string(),
  tsMs: z.number(),
  ok: z.literal(false),
  error: z.string(),
});

export const SampleSchema = z.discriminatedUnion('ok', [SampleOkSchema, SampleGapSchema]);
export type Sample = z.infer<typeof SampleSchema>;

// ---- sccache WebDAV (nginx JSON log) ----

export type SccacheKind = 'hit' | 'miss' | 'write' | 'overhead' | 'other';

export interface SccacheRecord {
  tsMs: number;
  clientAddress: string;
  method: string;
  uri: string;
  status: number;
  kind: SccacheKind;
  /** hit: body bytes sent; write: request content length; otherwise 0. */
  bytes: number;
  /** Set on a write whose request carried no Content-Length: `bytes` is 0 but the size is unknown. */
  bytesUnknown?: boolean;
  /** Key prefix: the URI path between the location root and the 3-level key, e.g. `rocm/gfx1201`. */
  keyPrefix: string | undefined;
  durationMs: number;
  /** The fleet node whose address made the request, when the reader was given an address → node map. */
  node?: string;
}

// ---- registry (Zot session log or CNCF Distribution JSON log) ----

export type RegistryKind = 'blob-write' | 'manifest-write' | 'blob-read' | 'manifest-read' | 'other';

export interface RegistryRecord {
  tsMs: number;
  /** Client IP without the port. */
  clientAddress: string;
  method: string;
  path: string;
  status: number;
  kind: RegistryKind;
  repository: string | undefined;
  /** Tag or digest for manifests, digest for blobs. */
  reference: string | undefined;
  /** Bytes written (writes) or served (reads); null when the log does not say. Never 0 for unknown. */
  bytes: number | null;
  durationMs: number | null;
  /** Matched a cache pattern (`registry.cache_patterns`). */
  isCache: boolean;
  /** The fleet node whose address made the request, when the reader was given an address → node map. */
  node?: string;
}

// ---- BuildKit trace, per target ----

export interface TraceStep {
  name: string;
  startMs: number;
  endMs: number;
  cached: boolean;
  /** The Dockerfile instruction, e.g. `RUN make -j64`, when the step name carries one. */
  instruction: string | undefined;
  /** The step's span ended with an error status (absent when it did not). */
  failed?: boolean;
}

export type UploadKind = 'image' | 'cache' | 'unknown';

export interface TraceUpload {
  startMs: number;
  endMs: number;
  method: string;
  url: string;
  status: number | undefined;
  bytes: number | null;
  kind: UploadKind;
}

export interface TargetTrace {
  target: string;
  /** The whole record. */
  startMs: number;
  endMs: number;
  totalSeconds: number;
  /** The span of the target's own steps. */
  buildStartMs: number | undefined;
  buildEndMs: number | undefined;
  buildSeconds: number;
  steps: TraceStep[];
  uploads: TraceUpload[];
  cachedSteps: number;
  totalSteps: number;
}
