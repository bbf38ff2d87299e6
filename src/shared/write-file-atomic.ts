import { lstat, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isPidAlive } from './is-pid-alive.js';

// A file written beside its place and renamed in, so a reader never sees half of it. On any failure (a missing
// folder, a directory in the way, a full disk) the temporary file is removed and the old file, if any, is untouched.
// A writer killed between the two (SIGKILL, a power cut) leaves its temporary file; the next atomic write into the
// same folder removes it once it is stale (isStaleTemp; docs/trust.md).

/** `.<name>.<pid>.tmp`: the temporary files writeFileAtomic makes. */
const TEMP_FILE = /^\..+\.(\d+)\.tmp$/;

/** A temporary file younger than this is someone's write in progress, whoever wrote it. */
const FRESH_MS = 60_000;
/** Older than this it is stale even when its pid is running (the pid was reused). */
const ABANDONED_MS = 24 * 3600_000;

interface TempFacts {
  pid: number;
  ageMs: number;
  ownPid: number;
  isRunning: (pid: number) => boolean;
}

/**
 * Whether a temporary file of writeFileAtomic is left over from a dead write: never our own process's, never one
 * touched in the last minute (a concurrent writer, here or on another host sharing the folder); then stale when
 * no process of its pid runs on this host, or when it is a day old.
 * @internal
 */
export function isStaleTemp({ pid, ageMs, ownPid, isRunning }: TempFacts): boolean {
  if (pid === ownPid || ageMs < FRESH_MS) return false;
  return ageMs >= ABANDONED_MS || !isRunning(pid);
}

/** Removes the stale temporary files of earlier atomic writes in DIR; best effort (a failure leaves them). */
async function removeStaleTemps(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const nowMs = Date.now();
  for (const name of names) {
    const pid = Number(TEMP_FILE.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isSafeInteger(pid)) continue;
    const file = path.join(dir, name);
    const info = await lstat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    if (isStaleTemp({ pid, ageMs: nowMs - info.mtimeMs, ownPid: process.pid, isRunning: isPidAlive }))
      await rm(file, { force: true }).catch(() => undefined);
  }
}

export async function writeFileAtomic(file: string, content: string | Buffer): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    // O_EXCL: a link planted at the temporary name is replaced, never written through.
    await rm(temp, { force: true });
    await writeFile(temp, content, { flag: 'wx' });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await removeStaleTemps(path.dirname(file));
}
