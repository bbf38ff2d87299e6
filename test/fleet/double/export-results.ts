// Image export/push and registry cache export (buildkit.md §4.3, v0.27 layout: push HTTP spans under
// `exporting to image`, cache-export HTTP spans directly under the Solve server span, cache export after push).
import { randomBytes } from 'node:crypto';
import { parseImageRef } from './image-ref.js';
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
import { nowMs } from './spans.js';
import {
  revisionAnnotation,
  targetAnnotation,
  toVertexDigest,
  type BuildEnv,
  type TargetRun,
} from './build-context.js';
import type { Attrs } from './bake-definition.js';

const layerType = 'application/vnd.oci.image.layer.v1.tar+gzip';
const manifestType = 'application/vnd.oci.image.manifest.v1+json';
const overheadBytes = 1024;

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

/** Uploads what the registry lacks (HEAD first); reused blobs must still exist. Returns bytes sent. */
async function pushBlobs(refText: string, blobs: readonly Blob[], context: PushContext): Promise<number> {
  const ref = parseImageRef(refText);
  let sent = 0;
  for (const blob of blobs) {
    if (blob.content) {
      const { uploaded } = await pushBlob(ref, blob.content, context);
      if (uploaded) sent += blob.content.length;
    } else if (!(await hasBlob(ref, blob.descriptor.digest, context))) {
      throw new Error(`${refText}: cached blob ${blob.descriptor.digest} is missing from the registry`);
    }
  }
  return sent;
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

/** `exporting to image` (+ push to every tag when the output pushes); undefined when no image exporter. */
export async function exportImage(
  env: BuildEnv,
  run: TargetRun,
  layerCacheHit: boolean,
): Promise<ImageResult | undefined> {
  const outputs = run.target.output ?? [];
  const image = outputs.find((o) => o.type === 'image' || o.type === 'registry');
  const unsupported = outputs.find((o) => !['image', 'registry', 'cacheonly'].includes(o.type ?? ''));
  if (unsupported)
    throw new Error(
      `output type=${unsupported.type} is not available in the fleet box (no Docker engine, no local export)`,
    );
  if (!image) return undefined;
  const tags = run.target.tags ?? [];
  const push = isPushOutput(image);
  const digest = toVertexDigest(run.name, 'exporting to image');
  const startedMs = nowMs();
  env.progress.vertex({ digest, inputs: [], name: 'exporting to image', startedMs });
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
    ...createLayerBlobs(run.cost.imageBytes, [1]),
  ];
  layersSpan.end();
  const [config, ...layers] = blobs as [Blob, ...Blob[]];
  const manifest = toManifest(run, config, layers);
  const context: PushContext = {
    userAgent: env.userAgent,
    trace: { recorder: env.recorder, parent: span },
    uploads: run.truth.uploadSpansMs,
  };
  if (push) {
    const pushStarted = nowMs();
    for (const tag of tags) {
      run.truth.imageUploadedBytes += await pushBlobs(tag, blobs, context);
      await putManifest(tag, manifest, manifestType, context);
      env.progress.status({
        vertex: digest,
        id: `pushing manifest for ${tag}@${toDigest(manifest)}`,
        startedMs: pushStarted,
        completedMs: nowMs(),
      });
    }
    env.progress.status({
      vertex: digest,
      id: 'pushing layers',
      startedMs: pushStarted,
      completedMs: nowMs(),
    });
  }
  span.end();
  env.progress.vertex({ digest, inputs: [], name: 'exporting to image', startedMs, completedMs: nowMs() });
  return {
    digest: toDigest(manifest),
    configDigest: config.descriptor.digest,
    size: manifest.length,
    names: tags,
  };
}

/** `exporting cache to registry` for every registry cache-to (a progress vertex only: no span of its own). */
export async function exportCache(
  env: BuildEnv,
  run: TargetRun,
  layerCache: FetchedManifest | undefined,
): Promise<void> {
  for (const entry of run.target['cache-to'] ?? []) {
    if (entry.type === 'inline') continue;
    if (entry.type !== 'registry' || !entry.ref)
      throw new Error(`cache-to type=${entry.type} is not available in the fleet box`);
    const digest = toVertexDigest(run.name, 'exporting cache to registry', entry.ref);
    const startedMs = nowMs();
    env.progress.vertex({ digest, inputs: [], name: 'exporting cache to registry', startedMs });
    env.progress.status({
      vertex: digest,
      id: 'preparing build cache for export',
      startedMs,
      completedMs: nowMs(),
    });
    const blobs = reuseBlobs(layerCache) ?? [
      createBlob('application/vnd.buildkit.cacheconfig.v0', randomBytes(512)),
      ...createLayerBlobs(run.cost.cacheBytes, [0.7, 0.3]),
    ];
    const [config, ...layers] = blobs as [Blob, ...Blob[]];
    const context: PushContext = {
      userAgent: env.userAgent,
      trace: { recorder: env.recorder, parent: run.solveSpan },
      uploads: run.truth.uploadSpansMs,
    };
    const writeStarted = nowMs();
    run.truth.cacheUploadedBytes += await pushBlobs(entry.ref, blobs, context);
    for (const layer of layers)
      env.progress.status({
        vertex: digest,
        id: `writing layer ${layer.descriptor.digest}`,
        startedMs: writeStarted,
        completedMs: nowMs(),
      });
    const manifest = toManifest(run, config, layers);
    await putManifest(entry.ref, manifest, manifestType, context);
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
}
