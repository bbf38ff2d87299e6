import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { openRunFile } from '../shared/open-run-file.js';
import path from 'node:path';
import type { RunDir } from './open-run-dir.js';
import { STREAM_FILES, type Plan, type RunFile } from '../artifacts/index.js';
import { findDigestMismatch, type FileDigestNow } from './find-digest-mismatch.js';
import { findPlanMismatch } from './find-plan-mismatch.js';
import { describeReadError } from './probe-stream.js';

// The run dir's files against run.json's record of them (size and SHA-256 as the run wrote them), and plan.json
// against the plan the run used. A run still in flight is not checked (its files are growing). Runs recorded before
// digests were kept get a note saying their files could not be verified byte for byte.

export interface RunFileChecks {
  /** File name → why it is not the file the run wrote. */
  mismatches: Map<string, string>;
  /** Why plan.json is not this run's plan; its planned figures are left out. */
  planProblem: string | undefined;
  notes: string[];
}

/** The buffer a streamed digest reads into. */
const DIGEST_CHUNK_BYTES = 256 * 1024;
/** Buffers no digest is reading into now (as many as digests ever ran at once). */
const spareBuffers: Buffer[] = [];

/** Files at most this large are kept in the handle when the command parses them after the check. */
const KEPT_BYTES = 32 * 1024 * 1024;

/**
 * SHA-256 and size of a file. Through the run dir's handle when the command goes on to read it (`keep`: the report
 * checks and then parses the same bytes) and it is small enough to keep; else streamed in chunks, confined (the logs;
 * and every file when only the check reads it, as for a stored data.json: nothing is kept then).
 */
async function readFileDigest(
  runDir: RunDir,
  name: string,
  { recordedBytes, keep }: { recordedBytes: number; keep: boolean },
): Promise<FileDigestNow> {
  // The streams (samples, step usage, the logs) have streaming readers of their own: never kept.
  if (keep && recordedBytes <= KEPT_BYTES && !(STREAM_FILES as readonly string[]).includes(name)) {
    let bytes: Buffer | undefined;
    try {
      bytes = await runDir.readBytes(name);
    } catch (error) {
      return { state: 'unreadable', why: describeReadError(error) };
    }
    if (bytes === undefined) return { state: 'absent' };
    return {
      state: 'read',
      sizeBytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
  }
  let handle: FileHandle;
  try {
    handle = await openRunFile(runDir.file(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent' };
    return { state: 'unreadable', why: describeReadError(error) };
  }
  // Read into a spare buffer, again and again: a stream allocates a new chunk per read, and the first build of a
  // 10,000-run index hashes some 78 GB (the chunks outlived young-generation collections and grew RSS).
  const hash = createHash('sha256');
  const buffer = spareBuffers.pop() ?? Buffer.allocUnsafe(DIGEST_CHUNK_BYTES);
  let sizeBytes = 0;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      sizeBytes += bytesRead;
    }
  } catch (error) {
    return { state: 'unreadable', why: describeReadError(error) };
  } finally {
    spareBuffers.push(buffer);
    await handle.close().catch(() => undefined);
  }
  return { state: 'read', sizeBytes, sha256: hash.digest('hex') };
}

export async function readRunFileChecks({
  runDir,
  run,
  plan,
  keep,
}: {
  runDir: RunDir;
  run: RunFile | undefined;
  plan: Plan | undefined;
  /** The command reads the files after checking them (the report): keep the small ones in the handle. */
  keep: boolean;
}): Promise<RunFileChecks> {
  const mismatches = new Map<string, string>();
  const notes: string[] = [];
  const recorded = run?.files;
  if (run !== undefined && run.status !== 'running') {
    if (recorded === undefined)
      notes.push(
        "run.json records no digests (a run recorded before rocm-perf kept them): its files are checked by size and content only, so an edit that keeps a file's size cannot be seen",
      );
    const records = Object.entries(recorded ?? {})
      .filter(([name]) => path.basename(name) === name)
      .sort(([a], [b]) => a.localeCompare(b));
    // Kept files are read side by side (the report's wait); streamed ones one at a time (serve's index reads runs
    // four at a time, and forty streams per run held its first build ~60 MB higher).
    const digest = ([name, record]: (typeof records)[number]) =>
      readFileDigest(runDir, name, { recordedBytes: record.sizeBytes, keep });
    const now: FileDigestNow[] = [];
    if (keep) now.push(...(await Promise.all(records.map(digest))));
    else for (const record of records) now.push(await digest(record));
    records.forEach(([name, record], index) => {
      const mismatch = findDigestMismatch(name, record, now[index]!);
      if (mismatch !== undefined) mismatches.set(name, mismatch);
    });
  }
  const planProblem =
    run?.status === 'running'
      ? undefined
      : findPlanMismatch({ run, plan, digest: mismatches.get('plan.json') });
  return { mismatches, planProblem, notes };
}
