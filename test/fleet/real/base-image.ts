// The box's base image, built from local files once per box (nothing is pulled from outside): Debian's static
// busybox with its applets as /bin symlinks, and box-compile in /usr/local/bin. One deterministic tar layer, pushed
// with its config and manifest straight to the registry (not through the proxy, so no node is charged for it).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const digestOf = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

export interface BaseLayer {
  /** The gzip'd tar, as pushed. */
  blob: Buffer;
  /** sha256 of the uncompressed tar (the config's diff_id). */
  diffId: string;
}

/** The base image's rootfs under `dir`: busybox, its applets, box-compile, /tmp. */
export function writeBaseRootfs(dir: string, boxCompile: string): string {
  const rootfs = path.join(dir, 'rootfs');
  for (const sub of ['bin', 'usr/local/bin', 'tmp', 'etc', 'out', 'src'])
    mkdirSync(path.join(rootfs, sub), { recursive: true });
  chmodSync(path.join(rootfs, 'tmp'), 0o1777);
  copyFileSync('/bin/busybox', path.join(rootfs, 'bin/busybox'));
  chmodSync(path.join(rootfs, 'bin/busybox'), 0o755);
  const applets = execFileSync('/bin/busybox', ['--list'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const applet of applets)
    if (applet !== 'busybox') symlinkSync('busybox', path.join(rootfs, 'bin', applet));
  copyFileSync(boxCompile, path.join(rootfs, 'usr/local/bin/box-compile'));
  chmodSync(path.join(rootfs, 'usr/local/bin/box-compile'), 0o755);
  return rootfs;
}

/** One layer of the rootfs: a tar with fixed owners and times, so every box makes the same digest. */
export function packBaseLayer(rootfs: string): BaseLayer {
  const tar = execFileSync(
    'tar',
    ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-C', rootfs, '-cf', '-', '.'],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  return { blob: gzipSync(tar, { level: 6 }), diffId: digestOf(tar) };
}

async function putBlob(registryUrl: string, repository: string, content: Buffer): Promise<string> {
  const digest = digestOf(content);
  const head = await fetch(`${registryUrl}/v2/${repository}/blobs/${digest}`, { method: 'HEAD' });
  if (head.status === 200) return digest;
  const post = await fetch(`${registryUrl}/v2/${repository}/blobs/uploads/`, { method: 'POST' });
  if (post.status !== 202) throw new Error(`base image ${repository}: POST upload answered ${post.status}`);
  const location = new URL(post.headers.get('location') ?? '', registryUrl);
  location.searchParams.set('digest', digest);
  const put = await fetch(location, {
    method: 'PUT',
    body: new Uint8Array(content),
    headers: { 'content-type': 'application/octet-stream' },
  });
  if (put.status !== 201) throw new Error(`base image ${repository}: PUT blob answered ${put.status}`);
  return digest;
}

/** Pushes the layer as `<repository>:<tag>` (an OCI image manifest, linux/amd64). */
export async function pushBaseImage(
  registryUrl: string,
  repository: string,
  tag: string,
  layer: BaseLayer,
): Promise<string> {
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      config: { Env: ['PATH=/usr/local/bin:/bin'], WorkingDir: '/' },
      rootfs: { type: 'layers', diff_ids: [layer.diffId] },
    }),
  );
  const configDigest = await putBlob(registryUrl, repository, config);
  const layerDigest = await putBlob(registryUrl, repository, layer.blob);
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
        {
          mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip',
          digest: layerDigest,
          size: layer.blob.length,
        },
      ],
    }),
  );
  const put = await fetch(`${registryUrl}/v2/${repository}/manifests/${tag}`, {
    method: 'PUT',
    body: new Uint8Array(manifest),
    headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
  });
  if (put.status !== 201)
    throw new Error(`base image ${repository}:${tag}: PUT manifest answered ${put.status}`);
  return digestOf(manifest);
}
