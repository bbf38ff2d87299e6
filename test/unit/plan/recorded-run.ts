import { RUN_VERSION, type RunFile, type TargetOutcome } from '../../../src/artifacts/index.js';
import type { TargetTrace } from '../../../src/collect/types.js';

// A recorded run in memory (run.json's shape) and traces, for the replay and critical-drag tests.

export const RUN_T0_MS = Date.UTC(2026, 2, 14, 9, 20);

export interface RecordedTarget {
  node: string;
  startSeconds: number;
  finishSeconds: number;
  status?: 'ok' | 'failed';
}

export function createRunFile(options: {
  harness?: RunFile['harness'];
  mode?: RunFile['mode'];
  nodes: RunFile['nodes'];
  targets: Record<string, RecordedTarget | TargetOutcome>;
}): RunFile {
  const targets: Record<string, TargetOutcome> = {};
  for (const [name, target] of Object.entries(options.targets)) {
    if (
      'status' in target &&
      (target.status === 'pending' || target.status === 'running' || target.status === 'skipped')
    )
      targets[name] = target;
    else if ('startSeconds' in target) {
      const times = {
        node: target.node,
        startedAtMs: RUN_T0_MS + target.startSeconds * 1000,
        finishedAtMs: RUN_T0_MS + target.finishSeconds * 1000,
      };
      targets[name] =
        target.status === 'failed'
          ? { status: 'failed', ...times, exitCode: 1, error: 'boom' }
          : { status: 'ok', ...times };
    }
  }
  const finishes = Object.values(targets).flatMap((t) => ('finishedAtMs' in t ? [t.finishedAtMs] : []));
  return {
    version: RUN_VERSION,
    stamp: '20260314T092000Z',
    harness: options.harness ?? 'warm',
    namespace: 'rocm',
    arch: 'gfx1201',
    sccachePrefix: 'live',
    liveSccachePrefix: 'live',
    fleetPath: 'fleet.yaml',
    status: 'completed',
    startedAtMs: RUN_T0_MS - 60_000,
    measuredStartedAtMs: RUN_T0_MS,
    finishedAtMs: Math.max(RUN_T0_MS, ...finishes),
    exitCode: 0,
    nodes: options.nodes,
    targets,
    bootstrapped: [],
    registryCachePatterns: [],
    registryLogFormat: 'zot',
    warnings: [],
    ...(options.mode ? { mode: options.mode } : {}),
  };
}

/**
 * A parsed trace with the given build seconds and upload sizes (null = a span without a size). Uploads last 1 ms
 * each at the start, or, with `uploadBytesPerSecond`, follow the build one after another at that rate (so the
 * record's setup is its wall time less both).
 */
export function createTrace(
  target: string,
  buildSeconds: number,
  uploadBytes: readonly (number | null)[],
  uploadBytesPerSecond?: number,
): TargetTrace {
  const startMs = RUN_T0_MS;
  let uploadAtMs = startMs + buildSeconds * 1000;
  const toSpan = (bytes: number | null) => {
    if (uploadBytesPerSecond === undefined) return { startMs, endMs: startMs + 1 };
    const span = { startMs: uploadAtMs, endMs: uploadAtMs + ((bytes ?? 0) / uploadBytesPerSecond) * 1000 };
    uploadAtMs = span.endMs;
    return span;
  };
  return {
    target,
    startMs,
    endMs: startMs + buildSeconds * 1000 + 1000,
    totalSeconds: buildSeconds + 1,
    buildStartMs: startMs,
    buildEndMs: startMs + buildSeconds * 1000,
    buildSeconds,
    steps: [],
    uploads: uploadBytes.map((bytes) => ({
      ...toSpan(bytes),
      method: 'PUT',
      url: 'http://registry/v2/x/blobs/uploads/1',
      status: 201,
      bytes,
      kind: 'cache',
    })),
    cachedSteps: 0,
    totalSteps: buildSeconds > 0 ? 1 : 0,
  };
}
