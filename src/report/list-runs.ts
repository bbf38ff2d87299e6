import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../shared/errors.js';
import { isRunDir, readRunDirNames } from './read-run-dir-names.js';

// The runs under a root, newest first. A run dir is a directory of the root's own (a link there is not followed:
// docs/trust.md) that isRunDir takes; stamps are ISO-8601 basic (20260314T092000Z) so name order is time order;
// mtime breaks ties.

export interface RunEntry {
  stamp: string;
  dir: string;
  mtimeMs: number;
}

export async function listRuns(root: string): Promise<RunEntry[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const runs: RunEntry[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const dir = path.join(root, name);
    const info = await lstat(dir).catch(() => undefined);
    if (!info?.isDirectory()) continue;
    const files = await readdir(dir).catch(() => [] as string[]);
    if (isRunDir(files)) runs.push({ stamp: name, dir, mtimeMs: info.mtimeMs });
  }
  return runs.sort((a, b) => b.stamp.localeCompare(a.stamp) || b.mtimeMs - a.mtimeMs);
}

export async function findNewestRun(root: string): Promise<string> {
  const [newest] = await listRuns(root);
  if (!newest) {
    throw new UsageError(`no run dirs under ${root}`, {
      hint: 'pass RUN_DIR, or --root/PERF_ROOT pointing at the runs root (default /var/tmp/rocm-perf)',
    });
  }
  await readRunDirNames(newest.dir);
  return newest.dir;
}
