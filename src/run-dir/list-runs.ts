import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { readRunFile } from './read-run-file.js';
import { openRunDir, type RunDir } from './open-run-dir.js';
import { UsageError } from '../shared/errors.js';
import { isRunDir, readRunDirNames } from './read-run-dir-names.js';
import { readIndexedStarts } from './read-run-index-lines.js';

// The runs under a root, newest first. A run dir is a directory of the root's own (a link there is not followed:
// docs/trust.md) that isRunDir takes. Newest is by when the run started (run.json's startedAtMs), not by its
// folder's name: a folder may be renamed or copied (`gfx1201-warm`), so its name alone says little about time. A dir
// without a readable start time (no run.json, or a damaged one) is placed by the time its name spells when it is a
// harness stamp (`20260314T092000Z-…`), else by its mtime; the name breaks ties.
//
// A root that keeps a run index (docs/history.md) gives the start of each run it lists: those runs are placed by
// their entry, and only a run dir the index does not list is opened here. `report` on a warm run looks for the run
// before it, and at 10,000 runs reading every run.json took seconds. A start edited by hand in run.json is seen
// once serve or publish has brought the index up to date (or the index is deleted).

export interface RunEntry {
  /** The folder's name: the run's address under the root (URLs, RUN arguments). */
  stamp: string;
  dir: string;
  mtimeMs: number;
  /** run.json's startedAtMs; undefined when run.json is absent or does not say. */
  startedAtMs: number | undefined;
}

/** Only the start time of run.json, for ordering; a file that is absent or damaged gives undefined (placed below). */
async function readRunStartMs(runDir: RunDir): Promise<number | undefined> {
  const run = await readRunFile(runDir).catch(() => undefined);
  return run?.startedAtMs;
}

const STAMP_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/;

/** The UTC time a harness stamp (`20260314T092000Z…`) spells; undefined for any other name. */
function parseStampMs(name: string): number | undefined {
  const m = STAMP_TIME.exec(name);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  return Number.isFinite(ms) ? ms : undefined;
}

function toOrderMs(run: RunEntry): number {
  return run.startedAtMs ?? parseStampMs(run.stamp) ?? run.mtimeMs;
}

/** Newest first: by start time (see above), then by name. */
function compareRunsNewestFirst(a: RunEntry, b: RunEntry): number {
  return toOrderMs(b) - toOrderMs(a) || b.stamp.localeCompare(a.stamp);
}

/**
 * The runs under ROOT. `open` opens each one's handle to read its run.json: a handle's `open`, so a command that
 * then reads a sibling (`handle.open(entry.dir)`) reads its run.json once; the entries do not hold the handles (serve
 * lists thousands of runs).
 */
export async function listRuns(
  root: string,
  open: (dir: string) => RunDir = openRunDir,
): Promise<RunEntry[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const indexed = await readIndexedStarts(root);
  const runs: RunEntry[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const dir = path.join(root, name);
    const info = await lstat(dir).catch(() => undefined);
    if (!info?.isDirectory()) continue;
    const startedAtMs = indexed.get(name);
    if (startedAtMs !== undefined) {
      runs.push({ stamp: name, dir, mtimeMs: info.mtimeMs, startedAtMs });
      continue;
    }
    const files = await readdir(dir).catch(() => [] as string[]);
    if (!isRunDir(files)) continue;
    const runDir = open(dir);
    runs.push({ stamp: name, dir, mtimeMs: info.mtimeMs, startedAtMs: await readRunStartMs(runDir) });
  }
  return runs.sort(compareRunsNewestFirst);
}

export async function findNewestRun(root: string): Promise<string> {
  const runs = await listRuns(root);
  // A run the index lists was a run dir when it was indexed: the first that still is one.
  for (const run of runs) if (isRunDir(await readdir(run.dir).catch(() => [] as string[]))) return run.dir;
  if (runs[0]) await readRunDirNames(runs[0].dir);
  throw new UsageError(`no run dirs under ${root}`, {
    hint: 'pass RUN_DIR, or --root/PERF_ROOT pointing at the runs root (default /var/tmp/rocm-perf)',
  });
}
