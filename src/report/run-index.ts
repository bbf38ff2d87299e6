import {
  readRunFile,
  isRunDir,
  readLane,
  openRunDir,
  readRunIndexLines,
  applyRunIndexLine,
} from '../run-dir/index.js';
import { lstat, open, readdir, rename, appendFile } from 'node:fs/promises';
import path from 'node:path';
import {
  RUN_DIR_FILES,
  RUN_INDEX_FILE,
  RUN_INDEX_VERSION,
  RunIndexLineSchema as LineSchema,
  type RunIndexEntry,
} from '../artifacts/index.js';

import { errorMessage } from '../shared/error-message.js';
import { isServableStamp } from '../shared/is-servable-stamp.js';
import { isRocmPerfError } from '../shared/errors.js';
import { toViewerReason } from '../shared/to-viewer-reason.js';
import { loadRunModel, type LoadedRun } from './load-run-model.js';

// The run index (docs/history.md): one compact summary per run dir of a runs root, in `<root>/.runs-index.jsonl`,
// an append-only JSON Lines file (the last line of a folder wins; `{"folder":…,"removed":true}` drops it). The run
// dirs stay the source of truth: each entry carries the signature (mtime and size) of the run's run.json, data.json
// and lane.txt it was made from, and a sync re-reads a run whose files no longer match, adds a folder the index does
// not know and drops one that is gone. The file is untrusted input like any run-dir file: read confined
// (openRunFile: no link, no hard link), each line held to RunIndexEntrySchema, a line that fails is skipped (its run
// is then re-read from its dir), and an entry only ever names a folder, one servable path segment, which serve
// resolves under its own root.

const STAMP_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/;

function parseStampMs(name: string): number | undefined {
  const m = STAMP_TIME.exec(name);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  return Number.isFinite(ms) ? ms : undefined;
}

const ratio = (part: number, whole: number): number | null =>
  whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null;

/**
 * A loaded run → its entry. Pure. Figures a check marked partial are left out (null), as trends leave them out.
 * @internal
 */
export function summarizeLoadedRun({
  folder,
  sig,
  loaded,
  mtimeMs,
}: {
  folder: string;
  sig: string;
  loaded: Pick<LoadedRun, 'model' | 'runFile'>;
  mtimeMs: number;
}): RunIndexEntry {
  const { run, summary } = loaded.model;
  const partial = summary.partial.length > 0;
  const sccache = summary.sccache?.total;
  const steps = summary.targets.reduce(
    (sum, t) => ({ cached: sum.cached + (t.cachedSteps ?? 0), total: sum.total + (t.totalSteps ?? 0) }),
    { cached: 0, total: 0 },
  );
  return {
    version: RUN_INDEX_VERSION,
    folder,
    sig,
    stamp: run.stamp,
    lane: run.lane,
    harness: run.harness,
    arch: run.arch ?? null,
    namespace: run.namespace ?? null,
    status: run.status,
    startedAtMs: loaded.runFile?.startedAtMs ?? run.startedAtMs ?? parseStampMs(folder) ?? mtimeMs,
    finishedAtMs: run.finishedAtMs ?? null,
    makespanSeconds: partial ? null : summary.makespanSeconds,
    plannedMakespanSeconds: summary.plannedMakespanSeconds ?? null,
    lowerBoundSeconds: summary.lowerBoundSeconds ?? null,
    partial,
    forecast:
      partial || !summary.forecast
        ? null
        : {
            banded: summary.forecast.banded,
            percentile: summary.forecast.percentile,
            outside: summary.forecast.outside,
            culprits: summary.forecast.culprits.slice(0, 50).map((c) => c.target),
          },
    sccacheHitRatio: sccache ? ratio(sccache.hits, sccache.hits + sccache.misses) : null,
    cachedStepRatio: ratio(steps.cached, steps.total),
    targets: summary.targets.map((t) => {
      const cut = t.partial.length > 0;
      return [
        t.target,
        t.status,
        cut ? null : t.buildSeconds,
        t.uploadSeconds ?? null,
        cut ? null : t.uploadBytes,
        t.startMs !== null && t.endMs !== null ? 1 : 0,
      ];
    }),
    damaged: null,
  };
}

function bareEntry(
  folder: string,
  sig: string,
  fields: Partial<RunIndexEntry> & { startedAtMs: number },
): RunIndexEntry {
  return {
    version: RUN_INDEX_VERSION,
    folder,
    sig,
    stamp: folder,
    lane: 'unknown',
    harness: 'unknown',
    arch: null,
    namespace: null,
    status: 'unknown',
    finishedAtMs: null,
    makespanSeconds: null,
    plannedMakespanSeconds: null,
    lowerBoundSeconds: null,
    partial: false,
    forecast: null,
    sccacheHitRatio: null,
    cachedStepRatio: null,
    targets: [],
    damaged: null,
    ...fields,
  };
}

async function statSig(file: string): Promise<string> {
  const info = await lstat(file).catch(() => undefined);
  return info ? `${Math.round(info.mtimeMs)}:${info.size}` : '-';
}

/** The signature of a run dir: what its entry was made from. */
export async function signRunDir(dir: string): Promise<string> {
  const parts = await Promise.all(
    ['run.json', 'data.json', RUN_DIR_FILES.lane].map((n) => statSig(path.join(dir, n))),
  );
  return parts.join('|');
}

/**
 * Reads one run dir into its entry. A run in flight is listed from run.json alone; a finished one through
 * loadRunModel (its data.json when that can be trusted, else its run files); one that cannot be read is listed as
 * damaged, with the reason.
 */
export async function summarizeRunDir({
  dir,
  folder,
  nowMs,
}: {
  dir: string;
  folder: string;
  nowMs: number;
}): Promise<RunIndexEntry> {
  const sig = await signRunDir(dir);
  const mtimeMs = (await lstat(dir)).mtimeMs;
  const fallbackMs = parseStampMs(folder) ?? mtimeMs;
  const runDir = openRunDir(dir);
  try {
    const runFile = await readRunFile(runDir);
    if (runFile?.status === 'running')
      return bareEntry(folder, sig, {
        stamp: runFile.stamp,
        lane: await readLane(runDir),
        harness: runFile.harness,
        arch: runFile.arch,
        namespace: runFile.namespace ?? null,
        status: 'running',
        startedAtMs: runFile.startedAtMs ?? fallbackMs,
      });
    return summarizeLoadedRun({ folder, sig, loaded: await loadRunModel({ runDir, nowMs }), mtimeMs });
  } catch (error) {
    if (!isRocmPerfError(error) && !(error instanceof SyntaxError)) throw error;
    const run = await readRunFile(runDir).catch(() => undefined);
    return bareEntry(folder, sig, {
      stamp: run?.stamp ?? folder,
      harness: run?.harness ?? 'unknown',
      lane: await readLane(runDir).catch(() => 'unknown'),
      arch: run?.arch ?? null,
      status: run?.status ?? 'unknown',
      startedAtMs: run?.startedAtMs ?? fallbackMs,
      damaged: toViewerReason(error).slice(0, 300) || errorMessage(error).slice(0, 300),
    });
  }
}

interface RunIndexFileRead {
  entries: Map<string, RunIndexEntry>;
  /** Lines in the file (entries, replaced entries, removals, rejected lines). */
  lines: number;
  /** Lines that failed the schema or were not JSON (their runs are re-read from their dirs). */
  rejected: number;
  bytes: number;
}

/** Applies one line to entries (the last line of a folder wins); false when the line is rejected. Pure. */
const applyEntryLine = (line: string, entries: Map<string, RunIndexEntry>): boolean =>
  applyRunIndexLine(line, LineSchema, entries, (entry) => entry);

/** Applies JSON Lines text to entries (last line of a folder wins). Pure. */
export function applyRunIndexLines(
  text: string,
  entries: Map<string, RunIndexEntry>,
): { lines: number; rejected: number } {
  let lines = 0;
  let rejected = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    lines += 1;
    if (!applyEntryLine(line, entries)) rejected += 1;
  }
  return { lines, rejected };
}

/** The index file of a root (read confined, line by line); an absent file is an empty index. */
async function readRunIndexFile(root: string): Promise<RunIndexFileRead> {
  const entries = new Map<string, RunIndexEntry>();
  let lines = 0;
  let rejected = 0;
  const read = await readRunIndexLines(root, (line) => {
    lines += 1;
    if (!applyEntryLine(line, entries)) rejected += 1;
  });
  return { entries, lines, rejected, bytes: read?.bytes ?? 0 };
}

const toLine = (entry: RunIndexEntry | { folder: string; removed: true }): string =>
  `${JSON.stringify(entry)}\n`;

/** Appends entries (and removals) to the index file; one write, so a reader sees whole lines. */
export async function appendRunIndex(
  root: string,
  lines: readonly (RunIndexEntry | { folder: string; removed: true })[],
): Promise<void> {
  if (lines.length === 0) return;
  await appendFile(path.join(root, RUN_INDEX_FILE), lines.map(toLine).join(''), { flag: 'a' });
}

/** Entries a rewrite serialises per write (a 10,000-run index is never held as one string). */
const REWRITE_CHUNK = 256;

/** Rewrites the index with one line per run (written beside it and renamed in, so a reader never sees half). */
export async function rewriteRunIndex(root: string, entries: Iterable<RunIndexEntry>): Promise<void> {
  const file = path.join(root, RUN_INDEX_FILE);
  const staged = `${file}.${process.pid}.tmp`;
  const handle = await open(staged, 'w');
  try {
    let chunk = '';
    let count = 0;
    for (const entry of entries) {
      chunk += toLine(entry);
      if (++count % REWRITE_CHUNK === 0) {
        await handle.write(chunk);
        chunk = '';
      }
    }
    await handle.write(chunk);
  } finally {
    await handle.close();
  }
  await rename(staged, file);
}

/**
 * `report` and `import` call this after writing a run under a root: the run's entry is appended when the root
 * keeps an index (the file exists), so serve shows the run without a rescan. Never fails the command: the index is
 * a cache of the run dirs, and serve re-reads a run whose entry is missing or stale.
 */
export async function noteRunInIndex(dir: string, nowMs: number = Date.now()): Promise<void> {
  const root = path.dirname(path.resolve(dir));
  const folder = path.basename(path.resolve(dir));
  try {
    if (!(await lstat(path.join(root, RUN_INDEX_FILE)).catch(() => undefined))?.isFile()) return;
    if (!isServableStamp(folder)) return;
    await appendRunIndex(root, [await summarizeRunDir({ dir, folder, nowMs })]);
  } catch {
    // The index is only a cache; serve's sync re-reads the run from its dir.
  }
}

/** Run dirs read at once by a sync (see syncRunIndex). */
const SYNC_CONCURRENCY = 4;

/** How far a sync has got: folders looked at (read, or found current in the index) of the root's folders. */
export interface RunIndexProgress {
  done: number;
  total: number;
}

export interface RunIndexSync {
  entries: Map<string, RunIndexEntry>;
  /** Folders read again (new, changed or with a rejected line) and folders dropped. */
  reread: string[];
  dropped: string[];
}

/**
 * Brings entries in line with the run dirs under realRoot: a folder not in the index (or whose signature changed,
 * when `checkSignatures`) is read, a folder that is gone is dropped. Returns the changes; the caller appends them.
 */
export async function syncRunIndex({
  realRoot,
  entries,
  checkSignatures,
  nowMs,
  onProgress,
}: {
  realRoot: string;
  entries: Map<string, RunIndexEntry>;
  checkSignatures: boolean;
  nowMs: number;
  /** After each folder: how many of the root's folders have been looked at. */
  onProgress?: (progress: RunIndexProgress) => void;
}): Promise<RunIndexSync> {
  const names = (await readdir(realRoot)).filter((name) => isServableStamp(name));
  const present = new Set<string>();
  const reread: string[] = [];
  const visit = async (folder: string): Promise<void> => {
    const dir = path.join(realRoot, folder);
    const known = entries.get(folder);
    if (known && !checkSignatures) {
      present.add(folder);
      return;
    }
    if (known && (await signRunDir(dir)) === known.sig) {
      present.add(folder);
      return;
    }
    const info = await lstat(dir).catch(() => undefined);
    if (!info?.isDirectory()) return;
    if (!isRunDir(await readdir(dir).catch(() => []))) return;
    present.add(folder);
    entries.set(folder, await summarizeRunDir({ dir, folder, nowMs }));
    reread.push(folder);
  };
  // A few runs at a time, each worker taking the next folder as it finishes one: a run read in full holds its
  // whole model only while it is summarised, and the fewer models in flight, the fewer outlive a young-generation
  // collection and grow the heap (a first start over 10,000 runs; docs/history.md).
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < names.length) {
      await visit(names[next++]!);
      onProgress?.({ done: ++done, total: names.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(SYNC_CONCURRENCY, names.length) }, worker));
  const dropped = [...entries.keys()].filter((folder) => !present.has(folder));
  for (const folder of dropped) entries.delete(folder);
  return { entries, reread, dropped };
}

export interface LoadedRunIndex {
  entries: Map<string, RunIndexEntry>;
  /** No index file to start from (absent, deleted, empty or unreadable): every run was read. */
  fresh: boolean;
  /** Folders read again and folders dropped by the sync. */
  reread: string[];
  dropped: string[];
  /** What to tell the user: the file not read, lines rejected, the file not written. */
  problems: string[];
  /** False when the file could not be written (the entries are good in memory). */
  written: boolean;
}

/**
 * The run index of a root, current: the file read (confined, line by line), then synced against the run dirs — a
 * folder the file lacks is read, one that is gone is dropped, and with `checkSignatures` (always, without a file to
 * start from) a run whose run.json, data.json or lane.txt changed since its entry is read again — and what changed
 * written back (appended; the whole file rewritten when it had none, a rejected line, or more than twice as many
 * lines as runs plus 100). serve starts from this, and `publish` lists its runs from it; `write: false` (a root
 * known to be read-only) keeps it in memory only.
 */
export async function loadRunIndex({
  realRoot,
  nowMs,
  checkSignatures,
  write = true,
  onProgress,
}: {
  realRoot: string;
  nowMs: number;
  checkSignatures: boolean;
  write?: boolean;
  onProgress?: (progress: RunIndexProgress & { fresh: boolean }) => void;
}): Promise<LoadedRunIndex> {
  const file = path.join(realRoot, RUN_INDEX_FILE);
  const problems: string[] = [];
  const read = await readRunIndexFile(realRoot).catch((error: unknown) => {
    problems.push(`${file}: not read (${errorMessage(error)}); rebuilt from the run dirs`);
    return { entries: new Map<string, RunIndexEntry>(), lines: 0, rejected: 0, bytes: 0 };
  });
  if (read.rejected > 0)
    problems.push(`${file}: ${read.rejected} line(s) rejected; their runs are read again`);
  const { entries } = read;
  const fresh = read.bytes === 0;
  const { reread, dropped } = await syncRunIndex({
    realRoot,
    entries,
    checkSignatures: checkSignatures || fresh,
    nowMs,
    onProgress: onProgress && ((progress) => onProgress({ ...progress, fresh })),
  });
  const rewrite = read.rejected > 0 || read.lines > 2 * entries.size + 100 || fresh;
  let written = true;
  if (write && (rewrite || reread.length > 0 || dropped.length > 0))
    try {
      if (rewrite) await rewriteRunIndex(realRoot, entries.values());
      else
        await appendRunIndex(realRoot, [
          ...reread.flatMap((folder) => (entries.has(folder) ? [entries.get(folder)!] : [])),
          ...dropped.map((folder) => ({ folder, removed: true as const })),
        ]);
    } catch (error) {
      written = false;
      problems.push(`${file}: not written (${errorMessage(error)}); kept in memory only`);
    }
  return { entries, fresh, reread, dropped, problems, written };
}

/** Newest first: by start time, then by folder name. */
export function compareEntriesNewestFirst(a: RunIndexEntry, b: RunIndexEntry): number {
  return b.startedAtMs - a.startedAtMs || b.folder.localeCompare(a.folder);
}
