import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { openRunFile } from '../shared/open-run-file.js';
import {
  appendRunIndex,
  applyRunIndexLines,
  compareEntriesNewestFirst,
  loadRunIndex,
  rewriteRunIndex,
  signRunDir,
  summarizeRunDir,
  syncRunIndex,
  type RunIndexProgress,
} from '../report/index.js';
import { RUN_INDEX_FILE, type RunIndexEntry } from '../artifacts/index.js';
import { errorMessage } from '../shared/error-message.js';
import type { FailureLog } from './failure-reply.js';

// serve's view of the run index (docs/history.md): loaded once (the file, then a sync against the run dirs that
// re-reads every run whose run.json, data.json or lane.txt changed), then kept current cheaply. Each request stats the index file and the root: lines `report` or `import` appended are read from where the
// file last ended, a changed root (a run dir added or removed) is listed again, and a run in flight is checked
// again (it is about to finish). Every `fullCheckMs` the run
// dirs' signatures are checked again in the background, so a hand edit inside a run dir is seen within that time.
// Changes serve finds are appended to the index; a file with many replaced lines is rewritten. A root serve may
// not write to keeps the index in memory only (logged once).

/** A load of the index under way: folders looked at so far, and whether it started without an index file. */
export interface RunIndexBuild extends RunIndexProgress {
  fresh: boolean;
  startedAtMs: number;
}

export interface RunIndexView {
  /** Every run, newest first, and a version that changes whenever the list does. */
  current(): Promise<{ runs: readonly RunIndexEntry[]; version: number }>;
  /** Starts loading the index now (serve's start), so the first viewer finds it built, or being built. */
  start(): void;
  /** While the index is being loaded: how far the load has got; undefined once it is loaded. */
  building(): RunIndexBuild | undefined;
}

interface FileMark {
  size: number;
  ino: number;
  mtimeMs: number;
}

async function markOf(file: string): Promise<FileMark | undefined> {
  const info = await lstat(file).catch(() => undefined);
  return info ? { size: info.size, ino: info.ino, mtimeMs: info.mtimeMs } : undefined;
}

/** The bytes a file gained after `from` (an append-only file), read confined. */
async function readTail(file: string, from: number, to: number): Promise<string> {
  const handle = await openRunFile(file);
  try {
    const buffer = Buffer.alloc(to - from);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, from);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

export function createRunIndexView({
  realRoot,
  failures,
  nowMs = () => Date.now(),
  fullCheckMs = 60_000,
  firstFullCheckMs = 30_000,
  onProgress,
}: {
  realRoot: string;
  failures: FailureLog;
  /** Each step of a load (a folder looked at), and its end (`done === total`). */
  onProgress?: (build: RunIndexBuild) => void;
  nowMs?: () => number;
  /** How often the run dirs' signatures are checked again (a hand edit is seen within this). */
  fullCheckMs?: number;
  /** When the first of those checks is due after a start from an index file. */
  firstFullCheckMs?: number;
}): RunIndexView {
  const file = path.join(realRoot, RUN_INDEX_FILE);
  let entries = new Map<string, RunIndexEntry>();
  let sorted: RunIndexEntry[] | undefined;
  let version = 0;
  let fileMark: FileMark | undefined;
  let rootMtimeMs = 0;
  let lastFullMs = 0;
  let loading: Promise<void> | undefined;
  let fullSync: Promise<void> | undefined;
  let checking: Promise<void> | undefined;
  let cannotWrite = false;
  let build: RunIndexBuild | undefined;

  const changed = (): void => {
    sorted = undefined;
    version += 1;
  };

  async function save(
    lines: readonly (RunIndexEntry | { folder: string; removed: true })[],
    rewrite: boolean,
  ): Promise<void> {
    if (cannotWrite) return;
    try {
      if (rewrite) await rewriteRunIndex(realRoot, entries.values());
      else await appendRunIndex(realRoot, lines);
    } catch (error) {
      cannotWrite = true;
      failures.record('run index', `${file}: not written (${errorMessage(error)}); kept in memory only`);
    }
  }

  async function sync(checkSignatures: boolean): Promise<void> {
    const next = new Map(entries);
    const { reread, dropped } = await syncRunIndex({
      realRoot,
      entries: next,
      checkSignatures,
      nowMs: nowMs(),
    });
    if (reread.length === 0 && dropped.length === 0) return;
    entries = next;
    changed();
    await save(
      [
        ...reread.flatMap((folder) => (next.has(folder) ? [next.get(folder)!] : [])),
        ...dropped.map((folder) => ({ folder, removed: true as const })),
      ],
      false,
    );
  }

  /**
   * Reads the index file and lists the root against it: a folder the index lacks is read, one that is gone is
   * dropped. With a file to start from, the run dirs' signatures are checked in the background (the first request
   * `firstFullCheckMs` after the start starts it), so a restart over a large history answers at once; without one (a first start, or a deleted or
   * unreadable index), every run is read now.
   */
  async function load(): Promise<void> {
    const startedAtMs = Date.now();
    build = { done: 0, total: 0, fresh: false, startedAtMs };
    let loaded: Awaited<ReturnType<typeof loadRunIndex>>;
    try {
      rootMtimeMs = (await lstat(realRoot)).mtimeMs;
      loaded = await loadRunIndex({
        realRoot,
        nowMs: nowMs(),
        checkSignatures: false,
        write: !cannotWrite,
        onProgress: (progress) => {
          build = { ...progress, startedAtMs };
          onProgress?.(build);
        },
      });
    } finally {
      // Loaded or failed: either way, no viewer is told it is under way any more.
      build = undefined;
    }
    for (const problem of loaded.problems) failures.record('run index', problem);
    if (!loaded.written) cannotWrite = true;
    entries = loaded.entries;
    changed();
    fileMark = await markOf(file);
    // A loaded file is checked against the run dirs' signatures by the first full check, due `firstFullCheckMs`
    // after the start (so it does not compete with the first pages viewers ask for).
    lastFullMs = loaded.fresh ? nowMs() : nowMs() - fullCheckMs + firstFullCheckMs;
  }

  async function check(): Promise<void> {
    const mark = await markOf(file);
    if (mark && fileMark && mark.ino === fileMark.ino && mark.size > fileMark.size) {
      const text = await readTail(file, fileMark.size, mark.size);
      const end = text.lastIndexOf('\n') + 1;
      applyRunIndexLines(text.slice(0, end), entries);
      fileMark = { ...mark, size: fileMark.size + Buffer.byteLength(text.slice(0, end)) };
      changed();
    } else if (
      mark === undefined ||
      fileMark === undefined ||
      mark.ino !== fileMark.ino ||
      mark.size < fileMark.size
    ) {
      // Deleted, replaced or cut short by someone else: read it again and check it against the run dirs.
      await load();
      return;
    }
    // A root changed within the last 2 s is listed again on every request: its mtime may tick once a second.
    const rootMtime = (await lstat(realRoot)).mtimeMs;
    if (rootMtime !== rootMtimeMs || Date.now() - rootMtime < 2000) {
      rootMtimeMs = rootMtime;
      await sync(false);
      fileMark = await markOf(file);
    }
    await recheckInFlight();
  }

  /** Runs in flight change until they finish: their signatures are checked on every request (there are few). */
  async function recheckInFlight(): Promise<void> {
    const live = [...entries.values()].filter((e) => e.status === 'running');
    const changedRuns: RunIndexEntry[] = [];
    for (const entry of live) {
      const dir = path.join(realRoot, entry.folder);
      if ((await signRunDir(dir)) === entry.sig) continue;
      const info = await lstat(dir).catch(() => undefined);
      if (!info?.isDirectory()) continue;
      changedRuns.push(await summarizeRunDir({ dir, folder: entry.folder, nowMs: nowMs() }));
    }
    if (changedRuns.length === 0) return;
    for (const entry of changedRuns) entries.set(entry.folder, entry);
    changed();
    await save(changedRuns, false);
    fileMark = await markOf(file);
  }

  const startLoading = (): Promise<void> =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));

  return {
    start() {
      // A load that fails here fails again, with its error, for the first viewer who asks.
      startLoading().catch(() => undefined);
    },
    building: () => build,
    async current() {
      await startLoading();
      const now = nowMs();
      checking ??= check().finally(() => {
        checking = undefined;
      });
      await checking;
      if (now - lastFullMs >= fullCheckMs && !fullSync) {
        lastFullMs = now;
        fullSync = sync(true)
          .then(async () => {
            fileMark = await markOf(file);
          })
          .catch((error: unknown) =>
            failures.record('run index', `full check failed: ${errorMessage(error)}`),
          )
          .finally(() => {
            fullSync = undefined;
          });
      }
      sorted ??= [...entries.values()].sort(compareEntriesNewestFirst);
      return { runs: sorted, version };
    },
  };
}
