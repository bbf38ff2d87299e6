import type { TargetTrace, TraceUpload } from '../../../src/collect/types.js';
import type { RunFile } from '../../../src/artifacts/index.js';

// The recorded pieces the cost derivation, the pooling and the fleet learning read: upload spans, a target's trace
// and a run.json on two nodes (fast: speed 2, 100 MB/s; slow: speed 1, 4 MB/s). Each test overrides what it checks.

export function createUpload(
  bytes: number | null,
  {
    startMs = 0,
    endMs = 1000,
    kind = 'image',
  }: Partial<Pick<TraceUpload, 'startMs' | 'endMs' | 'kind'>> = {},
): TraceUpload {
  return { startMs, endMs, method: 'PUT', url: 'http://r/v2/x/blobs/uploads/1', status: 201, bytes, kind };
}

export function createTrace(target: string, over: Partial<TargetTrace> = {}): TargetTrace {
  return {
    target,
    startMs: 0,
    endMs: 1,
    totalSeconds: 1,
    buildStartMs: 0,
    buildEndMs: 1,
    buildSeconds: 100,
    steps: [],
    uploads: [],
    cachedSteps: 0,
    totalSteps: 10,
    ...over,
  };
}

export const ok = (node: string) => ({ status: 'ok' as const, node, startedAtMs: 0, finishedAtMs: 1 });

export function createRunFile(over: Partial<RunFile> = {}): RunFile {
  const harness = over.harness ?? 'warm';
  return {
    version: 1,
    stamp: 's1',
    harness,
    mode: harness === 'warm' ? 'warm' : 'cold',
    namespace: 'rocm',
    arch: 'gfx1201',
    sccachePrefix: 'p',
    liveSccachePrefix: 'p',
    fleetPath: '/f',
    status: 'completed',
    startedAtMs: 0,
    measuredStartedAtMs: 0,
    finishedAtMs: 1,
    exitCode: 0,
    nodes: [
      { name: 'fast', builder: 'fast', linkMbps: 100, speed: 2 },
      { name: 'slow', builder: 'slow', linkMbps: 4, speed: 1 },
    ],
    targets: { a: ok('fast') },
    bootstrapped: [],
    registryCachePatterns: [],
    registryLogFormat: 'zot',
    warnings: [],
    ...over,
  };
}
