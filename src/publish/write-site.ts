import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../shared/errors.js';
import { buildManifest, SITE_MANIFEST, type SiteFile } from './build-site.js';

// Writes the site into a fresh directory beside `out`, then swaps it in, so a web server pointed at `out` never
// serves half a site. `out` is replaced whole, so it must be absent, empty, or a site this wrote before (it holds
// the manifest): a file or a folder of other things is refused, never deleted. A failure removes the staging dir.

async function checkReplaceable(target: string): Promise<void> {
  const info = await stat(target).catch(() => undefined);
  if (info === undefined) return;
  if (!info.isDirectory())
    throw new UsageError(`${target} is a file, not a site folder: nothing was written`, {
      hint: 'choose a new folder for the site (publish replaces that folder whole)',
    });
  const names = await readdir(target);
  if (names.length > 0 && !names.includes(SITE_MANIFEST))
    throw new UsageError(
      `${target} holds other files (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}), not a site rocm-perf wrote: nothing was written`,
      { hint: 'choose a new or empty folder for the site (publish replaces that folder whole)' },
    );
}

async function writeStaging(staging: string, files: readonly SiteFile[]): Promise<void> {
  for (const file of files) {
    const where = path.join(staging, ...file.path.split('/'));
    await mkdir(path.dirname(where), { recursive: true });
    await writeFile(where, file.content);
  }
  await writeFile(path.join(staging, SITE_MANIFEST), `${JSON.stringify(buildManifest(files), null, 2)}\n`);
}

export async function writeSite({
  out,
  files,
}: {
  out: string;
  files: readonly SiteFile[];
}): Promise<string> {
  const target = path.resolve(out);
  await checkReplaceable(target);
  const staging = `${target}.staging-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    await writeStaging(staging, files);
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  const old = `${target}.old-${process.pid}`;
  await rename(target, old).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, target);
  await rm(old, { recursive: true, force: true });
  return target;
}
