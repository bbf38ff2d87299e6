import { cp, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RUN_DIR_FILES, LaneSchema } from '../artifacts/index.js';
import { isRunDir, openRunDir, readRunFile } from '../run-dir/index.js';
import { findUnsafeEntries } from '../shared/open-run-file.js';
import { UsageError } from '../shared/errors.js';
import { readDockerbuild } from './read-dockerbuild.js';
import { buildUnsafeEntriesError } from './unsafe-entries-error.js';
import {
  isEnvironmentError,
  throwFileAccessError,
  toFileAccessError,
} from '../shared/to-file-access-error.js';
import { noteRunInIndex } from '../report/index.js';

// `rocm-perf import`: a run recorded elsewhere (same run-dir layout: the nightly on AWS is a fourth lane) comes in
// under the runs root as <root>/<stamp>/ with its lane in lane.txt, staged beside and renamed in, so a viewer never
// sees half a run. A run holding a link, a hard link or a special file is refused whole, each named
// (docs/trust.md): a tarball from CI must not make a viewer read the server's files.

export interface ImportRunOptions {
  /** A run dir, or a .tar.gz holding one (at its top level, or in its one top-level directory). */
  source: string;
  lane: string;
  root: string;
  /** Replace a run of the same stamp already under the root. */
  force: boolean;
  extractTarball: (options: { file: string; into: string }) => Promise<void>;
  /**
   * Rewrites the staged run's report (data.json, report.md, charts) before it is renamed in: the ones it came with
   * were made in its old lane, and say so.
   */
  rewriteReport: (dir: string) => Promise<void>;
}

export interface ImportedRun {
  dir: string;
  stamp: string;
  replaced: boolean;
}

const TARBALL = /\.(tar\.gz|tgz)$/;
const DOCKERBUILD = /\.dockerbuild$/;

/** A tarball's run dir: its only top-level directory, else its top level. */
async function findUnpackedRun(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  const only = entries.length === 1 ? entries[0] : undefined;
  return only?.isDirectory() ? path.join(dir, only.name) : dir;
}

async function checkRunDir(dir: string, source: string): Promise<void> {
  if (!isRunDir(await readdir(dir)))
    throw new UsageError(
      `${source} holds no run: no run.json, and no trace-<target>.json beside another file of a run (samples.jsonl, status-<target>.jsonl, sccache.log, zot.jsonl, artifacts.txt, plan.json)`,
      {
        hint: 'import a run dir (or a .tar.gz of one) as `rocm-perf cold|warm|bench` writes them',
      },
    );
  await refuseUnsafeEntries(dir, source);
}

/** Refuses the whole run when anything in it is not a regular file or directory of its own, naming each. */
async function refuseUnsafeEntries(dir: string, source: string): Promise<void> {
  const unsafe = await findUnsafeEntries(dir);
  if (unsafe.length === 0) return;
  throw buildUnsafeEntriesError({
    source,
    unsafe,
    what: 'a regular file of the run',
    hint: 'pack the run with its files themselves (`tar -czhf` follows links; `cp -L` copies their targets) after checking what they point at, or remove those entries',
  });
}

function toStamp(candidate: string, source: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(candidate)) return candidate;
  throw new UsageError(`${source}: cannot name the run \`${candidate}\` under the runs root`, {
    hint: 'rename the run dir (or the tarball) to its stamp, e.g. 20260314T092000Z',
  });
}

export async function importRun(options: ImportRunOptions): Promise<ImportedRun> {
  const lane = LaneSchema.safeParse(options.lane);
  if (!lane.success)
    throw new UsageError(`--lane ${options.lane}: ${lane.error.issues[0]?.message}`, {
      hint: 'e.g. --lane nightly-aws',
    });
  const source = path.resolve(options.source);
  const info = await stat(source).catch(() => undefined);
  if (info === undefined)
    throw new UsageError(`${options.source}: no such run dir or tarball`, {
      hint: 'pass a run dir or a .tar.gz of one',
    });
  const root = path.resolve(options.root);
  const rootTarget = { path: options.root, flag: '--root', doing: 'import a run under it' };
  await mkdir(root, { recursive: true }).catch(throwFileAccessError(rootTarget));
  const staging = await mkdtemp(path.join(root, '.import-')).catch(throwFileAccessError(rootTarget));
  try {
    const isDockerbuild = info.isFile() && DOCKERBUILD.test(source);
    const isTarball = (info.isFile() && TARBALL.test(source)) || isDockerbuild;
    if (!info.isDirectory() && !isTarball)
      throw new UsageError(`${options.source}: neither a run dir, a .tar.gz nor a .dockerbuild`, {
        hint: 'pass a run dir, a .tar.gz of one, or a `buildx history export` file (.dockerbuild)',
      });
    let dir = source;
    if (isDockerbuild) dir = await readDockerbuild({ file: source, source: options.source, into: staging });
    else if (isTarball) {
      await options.extractTarball({ file: source, into: staging });
      dir = await findUnpackedRun(staging);
    }
    await checkRunDir(dir, options.source);
    const run = await readRunFile(openRunDir(dir));
    const fallback =
      isTarball && dir === staging ? path.basename(source).replace(TARBALL, '') : path.basename(dir);
    const stamp = toStamp(run?.stamp ?? fallback, options.source);
    const target = path.join(root, stamp);
    const exists = (await stat(target).catch(() => undefined)) !== undefined;
    if (exists && !options.force)
      throw new UsageError(`${root} already has a run ${stamp}`, { hint: 'pass --force to replace it' });
    const ready = path.join(staging, '.run');
    if (!isTarball) await cp(dir, ready, { recursive: true, errorOnExist: true });
    else if (dir !== staging) await rename(dir, ready);
    else {
      await mkdir(ready);
      for (const name of await readdir(staging))
        if (name !== '.run') await rename(path.join(staging, name), path.join(ready, name));
    }
    // The import decides the lane: whatever the run came with under that name (even a directory) is replaced.
    await rm(path.join(ready, RUN_DIR_FILES.lane), { recursive: true, force: true });
    await writeFile(path.join(ready, RUN_DIR_FILES.lane), `${lane.data}\n`);
    await options.rewriteReport(ready);
    if (exists) await rm(target, { recursive: true, force: true });
    await rename(ready, target);
    // The root's run index, when it keeps one, gets the run now (docs/history.md).
    await noteRunInIndex(target);
    return { dir: target, stamp, replaced: exists };
  } catch (error) {
    if (!isEnvironmentError(error)) throw error;
    // A source file we may not read is about the source; a full disk or a permission while staging, the root.
    const readingSource =
      error.path?.startsWith(source) === true && (error as { dest?: string }).dest === undefined;
    throw toFileAccessError(
      error,
      readingSource ? { path: options.source, doing: 'read the run to import', reading: true } : rootTarget,
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
