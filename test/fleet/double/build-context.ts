// What one target's simulated solve needs and accumulates.
import { createHash, randomBytes } from 'node:crypto';
import type { FleetState, TargetState } from '../fleet-state.js';
import type { BakeTarget } from './bake-definition.js';
import type { CpuBurner } from './cpu-burner.js';
import type { ProgressWriter } from './progress.js';
import type { PushLimiter } from './push-limiter.js';
import type { SpanHandle, TraceRecorder } from './spans.js';

export interface BuildEnv {
  state: FleetState;
  builder: string;
  node: string;
  recorder: TraceRecorder;
  bakeSpan: SpanHandle;
  progress: ProgressWriter;
  burner: CpuBurner;
  /** sccache WebDAV endpoint (`SCCACHE_WEBDAV_ENDPOINT` arg, else the fleet's nginx). */
  sccacheEndpoint: string;
  userAgent: string;
  /** The builder's BuildKit release (its fleet state entry). */
  buildkitVersion: string;
  /** The builder's push slots per registry host (buildkitd's limited.Default). */
  pushLimiter: PushLimiter;
  /** Targets building now, for the record a cancelled build leaves (by name). */
  running: Map<string, TargetRun>;
}

export interface TargetRun {
  name: string;
  target: BakeTarget;
  cost: TargetState;
  id: string;
  createdAtMs: number;
  solveSpan: SpanHandle;
  steps: { total: number; completed: number; cached: number };
  materials: { uri: string; digest: string }[];
}

export const revisionAnnotation = 'org.rocm-perf.fleet.revision';
export const targetAnnotation = 'org.rocm-perf.fleet.target';

/** BuildKit's `identity.NewID()`: 25 characters of base 36. */
export function createSolveId(): string {
  return [...randomBytes(25)].map((b) => (b % 36).toString(36)).join('');
}

export function toVertexDigest(...parts: string[]): string {
  return `sha256:${createHash('sha256').update(parts.join('\u0000')).digest('hex')}`;
}

export const defaultTargetCost: TargetState = {
  buildSeconds: 1,
  imageBytes: 64 * 1024,
  cacheBytes: 64 * 1024,
  revision: '1',
  compileUnits: 4,
  sccacheEntryBytes: 4096,
};

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
