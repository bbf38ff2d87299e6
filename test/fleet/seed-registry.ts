// Pushes a small image straight to the real registry (not through the Zot-logging proxy), for inputs the
// scenario resolves from the registry rather than building (rocm-base).
import { createHash, randomBytes } from 'node:crypto';

const digestOf = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

async function putBlob(registryUrl: string, repository: string, content: Buffer): Promise<string> {
  const digest = digestOf(content);
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

export async function seedImage(registryUrl: string, repository: string, tag: string): Promise<string> {
  const config = Buffer.from(
    JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [] } }),
  );
  const layer = randomBytes(4096);
  const configDigest = await putBlob(registryUrl, repository, config);
  const layerDigest = await putBlob(registryUrl, repository, layer);
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: configDigest,
        size: config.length,
      },
      layers: [
        { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: layerDigest, size: layer.length },
      ],
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
