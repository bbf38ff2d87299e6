// Image export/push and registry cache export (buildkit.md §4.3). Which layout depends on the builder's BuildKit:
// before v0.28 the push runs inside `exporting to image` (its HTTP spans under that span) and the cache export
// follows it; from v0.28 the exporter only commits, and the push (HTTP spans straight under the Solve span) runs
// in parallel with the cache export (moby/buildkit 88ef66c6b). Blobs go out concurrently through the builder's
// push slots (push-limiter.ts); the cache export's layers one at a time before v0.27.
import { randomBytes } from 'node:crypto';
import { parseImageRef } from './image-ref.js';
import { createSemaphore, defaultMaxConcurrency, dispatchAll, type Semaphore } from './push-limiter.js';
import {
  fetchManifest,
  hasBlob,
  pushBlob,
  putManifest,
  toDigest,
  type Descriptor,
  type FetchedManifest,
  type PushContext,
} from './registry-push.js';
import { nowMs, type SpanHandle } from './spans.js';
import {
  revisionAnnotation,
  targetAnnotation,
  toVertexDigest,
  type BuildEnv,
  type TargetRun,
} from './build-context.js';
import type { Attrs } from './bake-definition.js';
import { buildkitSince, isAtLeast } from './versions.js';

const layerType = 'application/vnd.oci.image.layer.v1.tar+gzip';
const manifestType = 'application/vnd.oci.image.manifest.v1+json';
const overheadBytes = 1024;
/** How a target's image bytes split into layers (base, deps, build, wheel, metadata). */
const imageLayerShares = [0.45, 0.3, 0.15, 0.07, 0.03];
/** mode=max cache: every intermediate stage's layer. */
const cacheLayerShares = [0.35, 0.25, 0.15, 0.1, 0.08, 0.05, 0.02];

interface Blob {
  descriptor: Descriptor;
  content?: Buffer;
}

export interface ImageResult {
  digest: string;
  configDigest: string;
  size: number;
  names: string[];
}

/** The committed image, and its push when the output pushes (run it inside or after the exporter's span). */
export interface ImageExport {
  result: ImageResult;
  push: ((parent: SpanHandle) => Promise<void>) | undefined;
}

/** The layer cache hits when a cache-from manifest was written for this target at this revision. */
export async function fetchLayerCache(env: BuildEnv, run: TargetRun): Promise<FetchedManifest | undefined> {
  if (run.target['no-cache']) return undefined;
  for (const entry of run.target['cache-from'] ?? []) {
    if (entry.type !== 'registry' || !entry.ref) continue;
    const manifest = await fetchManifest(entry.ref, {
      userAgent: env.userAgent,
      trace: { recorder: env.recorder, parent: run.solveSpan },
    });
    const annotations = (manifest?.body.annotations ?? {}) as Record<string, string>;
    if (
      manifest &&
      annotations[revisionAnnotation] === run.cost.revision &&
      annotations[targetAnnotation] === run.name
    )
      return manifest;
  }
  return undefined;
}

function createBlob(mediaType: string, content: Buffer): Blob {
  return { descriptor: { mediaType, digest: toDigest(content), size: content.length }, content };
}

function createLayerBlobs(totalBytes: number, shares: readonly number[]): Blob[] {
  const payload = Math.max(shares.length, totalBytes - overheadBytes);
  return shares.map((share) => createBlob(layerType, randomBytes(Math.max(1, Math.round(payload * share)))));
}

function toManifest(run: TargetRun, config: Blob, layers: readonly Blob[]): Buffer {
  return Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: manifestType,
      config: config.descriptor,
      layers: layers.map((l) => l.descriptor),
      annotations: { [revisionAnnotation]: run.cost.revision, [targetAnnotation]: run.name },
    }),
  );
}

/** Uploads what the registry lacks (HEAD first), each blob in its own slot; reused blobs must still exist. */
async function pushBlobs(
  refText: string,
  blobs: readonly Blob[],
  context: PushContext,
  semaphore?: Semaphore,
): Promise<void> {
  const ref = parseImageRef(refText);
  await dispatchAll(blobs, async (blob) => {
    const release = await semaphore?.acquire();
    try {
      if (blob.content)
        await pushBlob(
          ref,
          { content: blob.content, mediaType: blob.descriptor.mediaType, digest: blob.descriptor.digest },
          context,
        );
      else if (!(await hasBlob(ref, blob.descriptor.digest, context)))
        throw new Error(`${refText}: cached blob ${blob.descriptor.digest} is missing from the registry`);
    } finally {
      release?.();
    }
  });
}

function reuseBlobs(manifest: FetchedManifest | undefined): Blob[] | undefined {
  if (!manifest) return undefined;
  const body = manifest.body as { config?: Descriptor; layers?: Descriptor[] };
  if (!body.config || !body.layers) return undefined;
  return [{ descriptor: body.config }, ...body.layers.map((descriptor) => ({ descriptor }))];
}

function isPushOutput(output: Attrs): boolean {
  return output.type === 'registry' || (output.type === 'image' && output.push === 'true');
}

const isPushParallel = (env: BuildEnv): boolean =>
  isAtLeast(env.buildkitVersion, buildkitSince.pushWithCacheExport);

const toPushContext = (env: BuildEnv, parent: SpanHandle): PushContext => ({
  userAgent: env.userAgent,
  trace: { recorder: env.recorder, parent },
  limiter: env.pushLimiter,
  retryBackoffMs: env.state.retryBackoffMs,
});

/** push.Push: every blob of the image (dispatched together), then the manifest, for each tag. */
async function pushImage(
  env: BuildEnv,
  image: { tags: readonly string[]; blobs: readonly Blob[]; manifest: Buffer; vertex: string },
  parent: SpanHandle,
): Promise<void> {
  const context = toPushContext(env, parent);
  const startedMs = nowMs();
  for (const tag of image.tags) {
    await pushBlobs(tag, image.blobs, context);
    env.progress.status({ vertex: image.vertex, id: 'pushing layers', startedMs, completedMs: nowMs() });
    await putManifest(tag, image.manifest, manifestType, context);
    env.progress.status({
      vertex: image.vertex,
      id: `pushing manifest for ${tag}@${toDigest(image.manifest)}`,
      startedMs,
      completedMs: nowMs(),
    });
  }
}

/** `exporting to image`: layers and the manifest committed; the push is returned for the caller to place. */
export async function exportImage(
  env: BuildEnv,
  run: TargetRun,
  layerCacheHit: boolean,
): Promise<ImageExport | undefined> {
  const outputs = run.target.output ?? [];
  const image = outputs.find((o) => o.type === 'image' || o.type === 'registry');
  const unsupported = outputs.find((o) => !['image', 'registry', 'cacheonly'].includes(o.type ?? ''));
  if (unsupported)
    throw new Error(
      `output type=${unsupported.type} is not available in the fleet box (no Docker engine, no local export)`,
    );
  if (!image) return undefined;
  const tags = run.target.tags ?? [];
  const vertex = toVertexDigest(run.name, 'exporting to image');
  const startedMs = nowMs();
  env.progress.vertex({ digest: vertex, inputs: [], name: 'exporting to image', startedMs });
  const span = env.recorder.startSpan({
    name: 'exporting to image',
    parent: run.solveSpan,
    service: 'buildkitd',
  });
  const layersSpan = env.recorder.startSpan({
    name: 'export layers',
    parent: span,
    service: 'buildkitd',
    attrs: { 'exportLayers.compressionType': 'gzip', 'exportLayers.forceCompression': false },
  });
  const previous =
    layerCacheHit && tags[0]
      ? reuseBlobs(await fetchManifest(tags[0], { userAgent: env.userAgent }))
      : undefined;
  const blobs = previous ?? [
    createBlob('application/vnd.oci.image.config.v1+json', randomBytes(512)),
    ...createLayerBlobs(run.cost.imageBytes, imageLayerShares),
  ];
  layersSpan.end();
  const [config, ...layers] = blobs as [Blob, ...Blob[]];
  const manifest = toManifest(run, config, layers);
  const push = isPushOutput(image)
    ? (parent: SpanHandle) => pushImage(env, { tags, blobs, manifest, vertex }, parent)
    : undefined;
  // Before v0.28 the exporter pushes inside its own span; from v0.28 the push is a finalize step after it.
  if (push && !isPushParallel(env)) await push(span);
  span.end();
  env.progress.vertex({
    digest: vertex,
    inputs: [],
    name: 'exporting to image',
    startedMs,
    completedMs: nowMs(),
  });
  return {
    result: {
      digest: toDigest(manifest),
      configDigest: config.descriptor.digest,
      size: manifest.length,
      names: tags,
    },
    push: push && isPushParallel(env) ? push : undefined,
  };
}

export interface CacheExport {
  ref: string;
  blobs: Blob[];
}

/**
 * The registry cache-to exports and their blobs. BuildKit has the layers in its content store by now; the double
 * makes (and hashes) them here, before any upload starts, so that work never delays an upload's timestamps.
 */
export function prepareCacheExports(run: TargetRun, layerCache: FetchedManifest | undefined): CacheExport[] {
  const exports: CacheExport[] = [];
  for (const entry of run.target['cache-to'] ?? []) {
    if (entry.type === 'inline') continue;
    if (entry.type !== 'registry' || !entry.ref)
      throw new Error(`cache-to type=${entry.type} is not available in the fleet box`);
    const blobs = reuseBlobs(layerCache) ?? [
      createBlob('application/vnd.buildkit.cacheconfig.v0', randomBytes(512)),
      ...createLayerBlobs(run.cost.cacheBytes, cacheLayerShares),
    ];
    exports.push({ ref: entry.ref, blobs });
  }
  return exports;
}

/** `exporting cache to registry` for every registry cache-to (a progress vertex only: no span of its own). */
export async function exportCache(
  env: BuildEnv,
  run: TargetRun,
  exports: readonly CacheExport[],
): Promise<void> {
  for (const entry of exports) await exportCacheTo(env, run, entry);
}

async function exportCacheTo(env: BuildEnv, run: TargetRun, { ref, blobs }: CacheExport): Promise<void> {
  const digest = toVertexDigest(run.name, 'exporting cache to registry', ref);
  const startedMs = nowMs();
  env.progress.vertex({ digest, inputs: [], name: 'exporting cache to registry', startedMs });
  // mode=max exports every intermediate layer: the ones not yet compressed are compressed now (CPU, at the quota).
  const newBytes = blobs.reduce((sum, blob) => sum + (blob.content?.length ?? 0), 0);
  await env.burner.burn(
    (newBytes / env.state.cacheCompressBytesPerSecond) * 1000 * env.state.cpuBaseCores,
    'export',
  );
  env.progress.status({
    vertex: digest,
    id: 'preparing build cache for export',
    startedMs,
    completedMs: nowMs(),
  });
  const [config, ...layers] = blobs as [Blob, ...Blob[]];
  const context = toPushContext(env, run.solveSpan);
  const writeStarted = nowMs();
  // Layers: images.Dispatch with a semaphore of 4 (v0.27+; one at a time before), each copy retried;
  // the config blob and the manifest are written afterwards, without the retry handler.
  const parallel = isAtLeast(env.buildkitVersion, buildkitSince.parallelCacheBlobs);
  await pushBlobs(ref, layers, context, createSemaphore(parallel ? defaultMaxConcurrency : 1));
  for (const layer of layers)
    env.progress.status({
      vertex: digest,
      id: `writing layer ${layer.descriptor.digest}`,
      startedMs: writeStarted,
      completedMs: nowMs(),
    });
  await pushBlobs(ref, [config], { ...context, retryBackoffMs: undefined });
  const manifest = toManifest(run, config, layers);
  await putManifest(ref, manifest, manifestType, { ...context, retryBackoffMs: undefined });
  env.progress.status({
    vertex: digest,
    id: `writing cache image manifest ${toDigest(manifest)}`,
    startedMs: writeStarted,
    completedMs: nowMs(),
  });
  env.progress.vertex({
    digest,
    inputs: [],
    name: 'exporting cache to registry',
    startedMs,
    completedMs: nowMs(),
  });
}
