import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildManifest, SITE_MANIFEST, type SiteFile } from './build-site.js';

// Writes the site into a fresh directory beside `out`, then swaps it in, so a web server pointed at `out` never
// serves half a site.

export async function writeSite({
  out,
  files,
}: {
  out: string;
  files: readonly SiteFile[];
}): Promise<string> {
  const target = path.resolve(out);
  const staging = `${target}.staging-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  for (const file of files) {
    const where = path.join(staging, ...file.path.split('/'));
    await mkdir(path.dirname(where), { recursive: true });
    await writeFile(where, file.content);
  }
  await writeFile(path.join(staging, SITE_MANIFEST), `${JSON.stringify(buildManifest(files), null, 2)}\n`);
  const old = `${target}.old-${process.pid}`;
  await rename(target, old).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, target);
  await rm(old, { recursive: true, force: true });
  return target;
}
