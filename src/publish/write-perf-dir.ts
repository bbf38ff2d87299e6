import { openRunDir, readDataFile } from '../run-dir/index.js';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { readRunFileBytes } from '../shared/open-run-file.js';

import path from 'node:path';
import type { DataFile } from '../artifacts/index.js';
import { UsageError } from '../shared/errors.js';
import { writeFileAtomic } from '../shared/write-file-atomic.js';
import { buildPerfIndexFiles, buildPerfRunFiles, type PerfRun } from './build-perf-dir.js';
import type { SiteFile } from './build-site.js';

// Writes runs into DIR (data/perf): a run already there with the same bytes is left alone, one whose files differ
// is refused unless `force`; each run dir is staged beside its place and swapped in, so a reader never sees half
// a run. Then README.md and index.html are rewritten from every run DIR holds, published now or before.

export interface WritePerfDirResult {
  dir: string;
  written: string[];
  unchanged: string[];
  replaced: string[];
  /** Every run DIR holds now. */
  total: number;
}

async function readExisting(dir: string): Promise<Map<string, Buffer> | undefined> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const files = new Map<string, Buffer>();
  for (const name of names) files.set(name, await readRunFileBytes(path.join(dir, name)));
  return files;
}

/** The first difference between what is there and what would be written, or undefined when they are equal. */
function findDifference(existing: Map<string, Buffer>, files: readonly SiteFile[]): string | undefined {
  for (const file of files) {
    const name = path.posix.basename(file.path);
    const there = existing.get(name);
    if (there === undefined) return `${name} is missing there`;
    if (!there.equals(file.content)) return `${name} differs`;
  }
  const names = new Set(files.map((file) => path.posix.basename(file.path)));
  const extra = [...existing.keys()].find((name) => !names.has(name));
  return extra === undefined ? undefined : `${extra} is there but not in the run`;
}

async function writeStaged(target: string, files: readonly SiteFile[]): Promise<void> {
  const staging = path.join(path.dirname(target), `.${path.basename(target)}.staging-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  try {
    await mkdir(staging, { recursive: true });
    for (const file of files)
      await writeFile(path.join(staging, path.posix.basename(file.path)), file.content);
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  const old = path.join(path.dirname(target), `.${path.basename(target)}.old-${process.pid}`);
  await rename(target, old).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, target);
  await rm(old, { recursive: true, force: true });
}

async function writeFileAtomically(file: string, content: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, content);
}

/** data.json of every run dir in DIR; a dir without one is not a run. */
async function readPublishedModels(dir: string): Promise<{ stamp: string; model: DataFile }[]> {
  const out: { stamp: string; model: DataFile }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'assets') continue;
    const read = await readDataFile(openRunDir(path.join(dir, entry.name)));
    if (read.state === 'absent') continue;
    if (read.state === 'bad')
      throw new UsageError(`${read.file}: not a data.json this version reads: it ${read.why}`, {
        hint: `republish that run with --force, or remove ${path.join(dir, entry.name)}`,
      });
    out.push({ stamp: entry.name, model: read.model });
  }
  return out;
}

export async function writePerfDir({
  into,
  runs,
  force,
}: {
  into: string;
  runs: readonly PerfRun[];
  force: boolean;
}): Promise<WritePerfDirResult> {
  const dir = path.resolve(into);
  await mkdir(dir, { recursive: true });
  const result: WritePerfDirResult = { dir, written: [], unchanged: [], replaced: [], total: 0 };
  const planned = runs.map((run) => ({ run, files: buildPerfRunFiles(run) }));
  // Check every run before writing any, so a refusal leaves DIR as it was.
  const actions: { stamp: string; files: SiteFile[]; kind: 'written' | 'replaced' }[] = [];
  for (const { run, files } of planned) {
    const existing = await readExisting(path.join(dir, run.stamp));
    if (existing === undefined) {
      actions.push({ stamp: run.stamp, files, kind: 'written' });
      continue;
    }
    const difference = findDifference(existing, files);
    if (difference === undefined) {
      result.unchanged.push(run.stamp);
      continue;
    }
    if (!force)
      throw new UsageError(
        `${path.join(dir, run.stamp)} already holds run ${run.stamp}, and ${difference}: nothing was written`,
        { hint: 'pass --force to replace the published run with this one' },
      );
    actions.push({ stamp: run.stamp, files, kind: 'replaced' });
  }
  for (const action of actions) {
    await writeStaged(path.join(dir, action.stamp), action.files);
    result[action.kind].push(action.stamp);
  }
  const models = await readPublishedModels(dir);
  for (const file of buildPerfIndexFiles(models))
    await writeFileAtomically(path.join(dir, ...file.path.split('/')), file.content);
  result.total = models.length;
  return result;
}
