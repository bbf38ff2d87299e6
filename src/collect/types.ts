// The collectors' records: what the log and trace parsers return, and the report and the harness read.
// (The run artifacts, stream stats among them, live in src/artifacts/.)

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
