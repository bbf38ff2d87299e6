// One target's solve: Control/Solve spans, internal loads, the layer-cache decision, the stage steps, image
// export/push, cache export; then its history record and metadata entry.
import { defaultTargetCost, createSolveId, type BuildEnv, type TargetRun } from './build-context.js';
import { runInternalSteps, runStageSteps } from './build-steps.js';
import {
  exportCache,
  exportImage,
  fetchLayerCache,
  prepareCacheExports,
  type ImageResult,
} from './export-results.js';
import { SpanKind } from './spans.js';
import type { HistoryRecord } from './history-store.js';
import type { BakeTarget } from './bake-definition.js';

export interface TargetOutcome {
  name: string;
  record: HistoryRecord;
  metadata: Record<string, unknown>;
  error?: string;
}

function startRun(env: BuildEnv, name: string, target: BakeTarget): TargetRun {
  const client = env.recorder.startSpan({
    name: 'moby.buildkit.v1.Control/Solve',
    parent: env.bakeSpan,
    kind: SpanKind.client,
    service: 'buildx',
    attrs: { 'rpc.system': 'grpc', 'rpc.service': 'moby.buildkit.v1.Control', 'rpc.method': 'Solve' },
  });
  const server = env.recorder.startSpan({
    name: 'moby.buildkit.v1.Control/Solve',
    parent: client,
    kind: SpanKind.server,
    service: 'buildkitd',
    attrs: { 'rpc.system': 'grpc', 'rpc.service': 'moby.buildkit.v1.Control', 'rpc.method': 'Solve' },
  });
  const endBoth = server.end;
  server.end = (options) => {
    endBoth(options);
    client.end(options);
  };
  return {
    name,
    target,
    cost: env.state.targets[name] ?? defaultTargetCost,
    id: createSolveId(),
    createdAtMs: Date.now(),
    solveSpan: server,
    steps: { total: 0, completed: 0, cached: 0 },
    materials: [],
  };
}

function toStringMap(map: Record<string, string | null> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(map ?? {}).filter((entry): entry is [string, string] => entry[1] !== null),
  );
}

/** The record of a build the client cancelled: BuildKit keeps it, status canceled, with its partial trace. */
export function toCanceledRecord(env: BuildEnv, run: TargetRun): HistoryRecord {
  run.solveSpan.end({ error: 'context canceled' });
  return { ...toRecord(env, run, 'context canceled'), status: 'canceled' };
}

function toRecord(env: BuildEnv, run: TargetRun, error: string | undefined): HistoryRecord {
  return {
    version: 1,
    ref: run.id,
    builder: env.builder,
    node: env.node,
    name: run.name,
    context: run.target.context ?? '.',
    dockerfile: run.target.dockerfile ?? 'Dockerfile',
    platforms: run.target.platforms ?? ['linux/amd64'],
    buildArgs: toStringMap(run.target.args),
    labels: toStringMap(run.target.labels),
    noCache: run.target['no-cache'] ?? false,
    createdAtMs: run.createdAtMs,
    completedAtMs: Date.now(),
    status: error === undefined ? 'completed' : 'failed',
    ...(error === undefined ? {} : { error }),
    numTotalSteps: run.steps.total,
    numCompletedSteps: run.steps.completed,
    numCachedSteps: run.steps.cached,
    materials: run.materials,
    exporters: run.target.output ?? [],
  };
}

function toMetadata(env: BuildEnv, run: TargetRun, image: ImageResult | undefined): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    'buildx.build.provenance': {
      buildType: 'https://mobyproject.org/buildkit@v1',
      materials: run.materials.map((m) => ({
        uri: m.uri,
        digest: { sha256: m.digest.replace(/^sha256:/, '') },
      })),
      invocation: {
        configSource: { entryPoint: run.target.dockerfile ?? 'Dockerfile' },
        parameters: { frontend: 'dockerfile.v0' },
        environment: { platform: 'linux/amd64' },
      },
    },
    'buildx.build.ref': `${env.builder}/${env.node}/${run.id}`,
  };
  if (image) {
    metadata['containerimage.config.digest'] = image.configDigest;
    metadata['containerimage.descriptor'] = {
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      digest: image.digest,
      size: image.size,
      annotations: { 'config.digest': image.configDigest },
    };
    metadata['containerimage.digest'] = image.digest;
    metadata['image.name'] = image.names.join(',');
  }
  return metadata;
}

export async function buildTarget(env: BuildEnv, name: string, target: BakeTarget): Promise<TargetOutcome> {
  const run = startRun(env, name, target);
  env.running.set(name, run);
  try {
    await runInternalSteps(env, run);
    const layerCache = await fetchLayerCache(env, run);
    await runStageSteps(env, run, layerCache !== undefined);
    const cacheExports = prepareCacheExports(run, layerCache);
    const image = await exportImage(env, run, layerCache !== undefined);
    // v0.28+: the image push (finalize) and the cache export run together (an errgroup in the solver).
    await Promise.all([image?.push?.(run.solveSpan), exportCache(env, run, cacheExports)]);
    run.solveSpan.end();
    return { name, record: toRecord(env, run, undefined), metadata: toMetadata(env, run, image?.result) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    run.solveSpan.end({ error: message });
    return { name, record: toRecord(env, run, message), metadata: {}, error: message };
  } finally {
    env.running.delete(name);
  }
}
