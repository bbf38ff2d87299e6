import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../../../shared/errors.js';
import { isPidAlive } from '../../../shared/is-pid-alive.js';

// One live run per registry namespace: a lock file under `<root>/.locks/` created exclusively.
// A lock whose pid is gone (same host) is stale and taken over; a live one refuses with who holds it.

const LockFileSchema = z.strictObject({
  version: z.literal(1),
  pid: z.number().int(),
  host: z.string(),
  namespace: z.string(),
  stamp: z.string(),
  startedAtMs: z.number(),
});
type LockFile = z.infer<typeof LockFileSchema>;

export interface RunLock {
  path: string;
  release(): Promise<void>;
}

export interface AcquireRunLockOptions {
  root: string;
  namespace: string;
  stamp: string;
  nowMs: number;
  /** For tests: is this pid alive? Default: signal 0. */
  isPidAlive?: (pid: number) => boolean;
}

async function readLock(file: string): Promise<LockFile | undefined> {
  try {
    const parsed = LockFileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function tryCreate(file: string, lock: LockFile): Promise<boolean> {
  try {
    const handle = await open(file, 'wx');
    await handle.writeFile(`${JSON.stringify(lock)}\n`);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

export async function acquireRunLock(options: AcquireRunLockOptions): Promise<RunLock> {
  const { root, namespace, stamp, nowMs, isPidAlive: alive = isPidAlive } = options;
  const dir = path.resolve(root, '.locks');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${namespace.replace(/[^A-Za-z0-9._-]/g, '_')}.lock`);
  const lock: LockFile = {
    version: 1,
    pid: process.pid,
    host: hostname(),
    namespace,
    stamp,
    startedAtMs: nowMs,
  };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await tryCreate(file, lock)) return { path: file, release: () => rm(file, { force: true }) };
    // An unreadable lock may be one being written right now: look again before calling it stale.
    const holder = (await readLock(file)) ?? (await delay(200).then(() => readLock(file)));
    const stale = holder === undefined || (holder.host === lock.host && !alive(holder.pid));
    if (!stale) {
      throw new UsageError(
        `a run into namespace ${namespace} is live: run ${holder.stamp}, pid ${holder.pid} on ${holder.host} (lock ${file})`,
        {
          hint: 'wait for it to finish, or use another namespace (PERF_COLD_NAMESPACE=-2 for a second cold run)',
        },
      );
    }
    await rm(file, { force: true });
  }
  throw new UsageError(`could not take the run lock ${file}: it keeps changing hands`, {
    hint: 'retry in a moment',
  });
}
