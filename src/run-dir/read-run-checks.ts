import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { KEPT_BYTES, type RunDir } from './open-run-dir.js';
import type { Plan, RunFile } from '../artifacts/index.js';
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

/**
 * SHA-256 and size of a file: through the run dir's handle when it is small enough to keep (a trace, a status
 * stream: its readers then read the same bytes), else in chunks (the logs).
 */
async function readFileDigest(runDir: RunDir, name: string, recordedBytes: number): Promise<FileDigestNow> {
  if (recordedBytes <= KEPT_BYTES) {
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
  const file = runDir.file(name);
  try {
    if (!(await stat(file)).isFile()) return { state: 'unreadable', why: 'not a regular file' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent' };
    return { state: 'unreadable', why: describeReadError(error) };
  }
  const hash = createHash('sha256');
  let sizeBytes = 0;
  try {
    for await (const chunk of createReadStream(file)) {
      const bytes = chunk as Buffer;
      hash.update(bytes);
      sizeBytes += bytes.length;
    }
  } catch (error) {
    return { state: 'unreadable', why: describeReadError(error) };
  }
  return { state: 'read', sizeBytes, sha256: hash.digest('hex') };
}

export async function readRunFileChecks({
  runDir,
  run,
  plan,
}: {
  runDir: RunDir;
  run: RunFile | undefined;
  plan: Plan | undefined;
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
    // Read side by side (the files' reads overlap); said in name order.
    const now = await Promise.all(
      records.map(([name, record]) => readFileDigest(runDir, name, record.sizeBytes)),
    );
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
