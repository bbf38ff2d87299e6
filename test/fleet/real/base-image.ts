// The box's base image, built from local files once per box (nothing is pulled from outside): Debian's static
// busybox with its applets as /bin symlinks, and box-compile in /usr/local/bin. One deterministic tar layer, pushed
// with its config and manifest straight to the registry (seed-registry.ts: not through the proxy).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { pushImage } from '../seed-registry.js';

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

/** Pushes the layer as `<repository>:<tag>` (an OCI image manifest, linux/amd64). */
export function pushBaseImage(
  registryUrl: string,
  repository: string,
  tag: string,
  layer: BaseLayer,
): Promise<string> {
  return pushImage(registryUrl, repository, tag, {
    config: {
      architecture: 'amd64',
      os: 'linux',
      config: { Env: ['PATH=/usr/local/bin:/bin'], WorkingDir: '/' },
      rootfs: { type: 'layers', diff_ids: [layer.diffId] },
    },
    layers: [layer.blob],
  });
}
