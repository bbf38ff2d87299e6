import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readRunFileBytes } from '../shared/open-run-file.js';

// A run dir as one command reads it: every file through the confined open (open-run-file.ts), each read at most
// once however many readers ask (the report, its checks, why, usage and the advisor all read the same traces and
// status streams), and each parsed value kept beside it. A handle lives as long as one command's read of one run
// dir; serve opens a fresh one for every read of a run in flight, whose files grow.
//
// The handle holds files read whole (run.json, plan.json, the traces, status streams, metadata): the streams
// (samples, step usage, the logs, which may be hundreds of megabytes) are read by their streaming readers
// (collect/log-reader) and never kept; the digest check keeps only what the command parses next (read-run-checks.ts).

export interface RunDir {
  /** The run dir's path, as given. */
  readonly dir: string;
  /** The path of a file of the run dir. */
  file(name: string): string;
  /**
   * A file's bytes, read confined the first time any reader asks; undefined when there is no such file. A link or
   * special file rejects with RunFileRefusedError; another failure with the file system's error.
   */
  readBytes(name: string): Promise<Buffer | undefined>;
  /** The same file's text (UTF-8), kept for the next reader. */
  readText(name: string): Promise<string | undefined>;
  /**
   * The file's text for a reader that keeps what it parses from it (the traces, read whole by one memoized reader;
   * the cache-debug files): not kept after, so a command reading many runs (serve's index) holds each run's
   * largest files only while it parses them.
   */
  takeText(name: string): Promise<string | undefined>;
  /** The dir's entry names in name order, listed once. */
  listNames(): Promise<readonly string[]>;
  /** A value computed from the run dir's files, once per handle: `key` names what it is (a file and a reading). */
  remember<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /**
   * Another run dir's handle for the same command (the run `why` compares with, the lane's earlier runs the
   * advisor reads): one handle per path, so what one reader read of a sibling another does not read again.
   */
  open: (dir: string) => RunDir;
}

const isAbsent = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

export function openRunDir(dir: string, opened = new Map<string, RunDir>()): RunDir {
  const known = opened.get(path.resolve(dir));
  if (known !== undefined) return known;
  const kept = new Map<string, Promise<unknown>>();
  const remember = <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    let value = kept.get(key) as Promise<T> | undefined;
    if (value === undefined) {
      value = compute();
      kept.set(key, value);
    }
    return value;
  };
  const file = (name: string) => path.join(dir, name);
  const readBytes = (name: string) =>
    remember(`bytes:${name}`, () =>
      readRunFileBytes(file(name)).catch((error: unknown) => {
        if (isAbsent(error)) return undefined;
        throw error;
      }),
    );
  const runDir: RunDir = {
    dir,
    file,
    readBytes,
    // The text replaces the bytes: a reader that parses a file never needs its bytes again (the digest check
    // reads them first), and a run's files are kept once, not twice.
    readText: (name) =>
      remember(`text:${name}`, async () => {
        const text = (await readBytes(name))?.toString('utf8');
        kept.delete(`bytes:${name}`);
        return text;
      }),
    takeText: async (name) => {
      const text = await runDir.readText(name);
      kept.delete(`text:${name}`);
      return text;
    },
    listNames: () => remember('names', async () => (await readdir(dir)).sort()),
    remember,
    open: (other) => openRunDir(other, opened),
  };
  opened.set(path.resolve(dir), runDir);
  return runDir;
}
