import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../../shared/logger.js';
import { RESERVE_BYTES } from './estimate-run-dir.js';
import type { RunFileWriter } from './run-file-writer.js';
import { errorMessage } from '../../../shared/error-message.js';

// The run dir's writes over a run of hours: the disk may fill up (ENOSPC, EDQUOT) or be remounted read-only (EROFS),
// or fail (EIO). Every writer reports its failures here. The first one is remembered, stops the run from launching
// more (the signal), and frees the reserve: space set aside at the start, so that finalize can still write
// run.json, the report and what it says about the failure. Whatever was written before stays.

interface WriteFailure {
  /** The run-dir file whose write failed. */
  file: string;
  code: string;
  message: string;
  atMs: number;
}

export interface RunDirGuard {
  /** Records a failed write; true when it was a disk failure (and the run must stop), false for anything else. */
  fail(file: string, error: unknown): boolean;
  failure(): WriteFailure | undefined;
  /** Aborted at the first disk failure. */
  signal: AbortSignal;
  /** Sets the reserve aside (preflight already checked the estimate fits). */
  reserve(): Promise<void>;
  /** Frees the reserve (at the first failure, and at the end of the run). */
  release(): Promise<void>;
  /** The user-facing account: what failed, when, and what the run dir still holds. */
  describe(): string | undefined;
}

const DISK_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);
const RESERVE_FILE = '.reserve';

const FIXES: Record<string, string> = {
  ENOSPC: 'free space on that file system or move the run root (--root / PERF_ROOT) to a larger disk',
  EDQUOT: 'raise the quota or move the run root (--root / PERF_ROOT)',
  EROFS:
    'the file system was remounted read-only (often after disk errors): check `dmesg`, then run from a writable root',
  EIO: 'the disk reported an I/O error: check `dmesg` and the disk',
};

function isDiskFailure(error: unknown): boolean {
  return DISK_CODES.has(String((error as { code?: unknown } | undefined)?.code));
}

export function createRunDirGuard({
  runDir,
  logger,
  nowMs,
}: {
  runDir: string;
  logger: Logger;
  nowMs: () => number;
}): RunDirGuard {
  const controller = new AbortController();
  const reservePath = path.join(runDir, RESERVE_FILE);
  let first: WriteFailure | undefined;
  let reserved = false;
  const release = async () => {
    if (!reserved) return;
    reserved = false;
    await rm(reservePath, { force: true }).catch(() => undefined);
  };
  return {
    signal: controller.signal,
    failure: () => first,
    fail(file, error) {
      if (!isDiskFailure(error)) return false;
      if (first !== undefined) return true;
      const code = String((error as { code: unknown }).code);
      first = { file: path.basename(file), code, message: errorMessage(error), atMs: nowMs() };
      logger.error({ err: error, file }, 'the run dir cannot be written; stopping the run');
      void release();
      controller.abort(code);
      return true;
    },
    async reserve() {
      const handle = await open(reservePath, 'w');
      try {
        // Real blocks, not a sparse file: zeros written out.
        const chunk = Buffer.alloc(1024 * 1024);
        for (let written = 0; written < RESERVE_BYTES; written += chunk.length) await handle.write(chunk);
        await handle.sync();
      } finally {
        await handle.close();
      }
      reserved = true;
    },
    release,
    describe() {
      if (first === undefined) return undefined;
      const at = new Date(first.atMs).toISOString();
      return `the run dir could not be written (${first.code} on ${first.file} at ${at}): the run stopped launching targets and cancelled the running ones; files in the run dir hold what was written before then, and what came after is lost. Fix: ${FIXES[first.code] ?? 'check the disk'}`;
    },
  };
}

/** After a disk failure, for stderr: the guard's account, and whether even run.json could not be finalized. */
export function describeUnwritten({
  guard,
  runFile,
}: {
  guard: RunDirGuard;
  runFile: RunFileWriter;
}): string[] {
  const account = guard.describe();
  if (account === undefined) return [];
  const { status, exitCode } = runFile.get();
  return [
    `ERROR: ${account}`,
    ...(runFile.isWritten()
      ? []
      : [
          `ERROR: run.json could not be finalized either: on disk it still says the run is running. This run ended ${status} with exit ${exitCode}.`,
        ]),
  ];
}
