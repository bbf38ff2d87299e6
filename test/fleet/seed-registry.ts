// Pushes images straight to the real registry (not through the registry proxy, so no node is charged for them),
// for inputs the scenario resolves from the registry rather than building (rocm-base): one OCI image manifest with
// its config and layers, each blob skipped when the repository already holds it.
import { createHash } from 'node:crypto';

const digestOf = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

async function putBlob(registryUrl: string, repository: string, content: Buffer): Promise<string> {
  const digest = digestOf(content);
  const head = await fetch(`${registryUrl}/v2/${repository}/blobs/${digest}`, { method: 'HEAD' });
  if (head.status === 200) return digest;
  const post = await fetch(`${registryUrl}/v2/${repository}/blobs/uploads/`, { method: 'POST' });
  if (post.status !== 202) throw new Error(`seed ${repository}: POST upload answered ${post.status}`);
  const location = new URL(post.headers.get('location') ?? '', registryUrl);
  location.searchParams.set('digest', digest);
  const put = await fetch(location, {
    method: 'PUT',
    body: new Uint8Array(content),
    headers: { 'content-type': 'application/octet-stream' },
  });
  if (put.status !== 201) throw new Error(`seed ${repository}: PUT blob answered ${put.status}`);
  return digest;
}

export interface SeedImage {
  /** The image config (architecture, os, rootfs.diff_ids, …). */
  config: Record<string, unknown>;
  /** The layer blobs as pushed (gzip'd tars for a real image). */
  layers: readonly Buffer[];
}

/** Pushes `image` as `<repository>:<tag>`; returns the manifest's digest. */
export async function pushImage(
  registryUrl: string,
  repository: string,
  tag: string,
  image: SeedImage,
): Promise<string> {
  const config = Buffer.from(JSON.stringify(image.config));
  const configDigest = await putBlob(registryUrl, repository, config);
  const layers = [];
  for (const layer of image.layers)
    layers.push({
      mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip',
      digest: await putBlob(registryUrl, repository, layer),
      size: layer.length,
    });
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: configDigest,
        size: config.length,
      },
      layers,
    }),
  );
  const put = await fetch(`${registryUrl}/v2/${repository}/manifests/${tag}`, {
    method: 'PUT',
    body: new Uint8Array(manifest),
    headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
  });
  if (put.status !== 201) throw new Error(`seed ${repository}:${tag}: PUT manifest answered ${put.status}`);
  return digestOf(manifest);
}
