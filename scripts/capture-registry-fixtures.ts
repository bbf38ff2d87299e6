// Captures test/fixtures/registry/distribution-push.log from Debian's docker-registry (CNCF Distribution 2.8,
// JSON formatter, access log on): chunked and monolithic-style blob pushes, a cross-repo mount, cache and image
// manifests, pulls, a tags list and failures. Run: npx tsx scripts/capture-registry-fixtures.ts
import { createHash } from 'node:crypto';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { startRegistry } from '../test/helpers/daemons/index.js';

const sha256 = (data: Buffer | string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;
const userAgent = { 'user-agent': 'buildkit/v0.21' };

async function send(
  url: string,
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT',
  options: { body?: Buffer | string; headers?: Record<string, string> } = {},
) {
  const response = await request(url, {
    method,
    body: options.body,
    headers: { ...userAgent, ...options.headers },
  });
  await response.body.dump();
  return { status: response.statusCode, location: response.headers.location as string | undefined };
}

/** POST → PATCH (one chunk) → PUT ?digest=: the go-containerregistry / BuildKit upload. Returns the digest. */
export async function pushBlob(registryUrl: string, repository: string, body: Buffer): Promise<string> {
  const digest = sha256(body);
  await send(`${registryUrl}/v2/${repository}/blobs/${digest}`, 'HEAD');
  const started = await send(`${registryUrl}/v2/${repository}/blobs/uploads/`, 'POST', {
    headers: { 'content-length': '0' },
  });
  const location = new URL(started.location ?? '', registryUrl);
  const patched = await send(location.href, 'PATCH', {
    body,
    headers: { 'content-type': 'application/octet-stream' },
  });
  const finalUrl = new URL(patched.location ?? '', registryUrl);
  finalUrl.searchParams.set('digest', digest);
  const put = await send(finalUrl.href, 'PUT', { headers: { 'content-length': '0' } });
  if (put.status !== 201) throw new Error(`blob PUT to ${repository} answered ${put.status}`);
  return digest;
}

export async function pushManifest(
  registryUrl: string,
  repository: string,
  tag: string,
  layers: { digest: string; size: number }[],
  config: { digest: string; size: number },
): Promise<string> {
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
    layers: layers.map((layer) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...layer })),
  });
  const put = await send(`${registryUrl}/v2/${repository}/manifests/${tag}`, 'PUT', {
    body: manifest,
    headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
  });
  if (put.status !== 201) throw new Error(`manifest PUT ${repository}:${tag} answered ${put.status}`);
  return manifest;
}

export interface PushExpectation {
  cache: { blobsWritten: number; manifestsWritten: number; blobBytes: number };
  image: { blobsWritten: number; manifestsWritten: number; blobBytes: number };
}

/** Cache export to rocm/cache:api, image push to rocm/api:latest, a mount, pulls and failures. */
export async function runRegistryTraffic(registryUrl: string): Promise<PushExpectation> {
  const config = Buffer.from('{"architecture":"amd64","os":"linux"}');
  const cacheLayer = Buffer.alloc(300_000, 7);
  const imageLayer = Buffer.alloc(120_000, 3);
  const cacheConfigDigest = await pushBlob(registryUrl, 'rocm/cache', config);
  const cacheLayerDigest = await pushBlob(registryUrl, 'rocm/cache', cacheLayer);
  await pushManifest(
    registryUrl,
    'rocm/cache',
    'api',
    [{ digest: cacheLayerDigest, size: cacheLayer.length }],
    { digest: cacheConfigDigest, size: config.length },
  );
  const imageConfigDigest = await pushBlob(registryUrl, 'rocm/api', config);
  const imageLayerDigest = await pushBlob(registryUrl, 'rocm/api', imageLayer);
  await send(`${registryUrl}/v2/rocm/api/blobs/uploads/?mount=${cacheLayerDigest}&from=rocm/cache`, 'POST');
  await pushManifest(
    registryUrl,
    'rocm/api',
    'latest',
    [
      { digest: imageLayerDigest, size: imageLayer.length },
      { digest: cacheLayerDigest, size: cacheLayer.length },
    ],
    { digest: imageConfigDigest, size: config.length },
  );
  await send(`${registryUrl}/v2/rocm/api/manifests/latest`, 'GET', {
    headers: { accept: 'application/vnd.oci.image.manifest.v1+json' },
  });
  await send(`${registryUrl}/v2/rocm/api/blobs/${imageLayerDigest}`, 'GET');
  await send(`${registryUrl}/v2/rocm/api/tags/list`, 'GET');
  await send(`${registryUrl}/v2/rocm/api/manifests/missing`, 'GET');
  await send(`${registryUrl}/v2/rocm/api/blobs/uploads/`, 'POST', {
    body: 'mono',
    headers: { 'content-type': 'application/octet-stream' },
  });
  return {
    cache: { blobsWritten: 2, manifestsWritten: 1, blobBytes: config.length + cacheLayer.length },
    image: { blobsWritten: 2, manifestsWritten: 1, blobBytes: config.length + imageLayer.length },
  };
}

async function main(): Promise<void> {
  const out = path.resolve(import.meta.dirname, '../test/fixtures/registry');
  const registry = await startRegistry();
  try {
    const expected = await runRegistryTraffic(registry.url);
    await new Promise((resolve) => setTimeout(resolve, 300));
    copyFileSync(registry.logPath, path.join(out, 'distribution-push.log'));
    writeFileSync(
      path.join(out, 'distribution-push.expected.json'),
      `${JSON.stringify(expected, null, 2)}\n`,
    );
  } finally {
    await registry.stop();
  }
  console.log(`wrote ${out}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
