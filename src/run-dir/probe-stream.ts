import { openRunFile, RunFileRefusedError } from '../shared/open-run-file.js';
import { createStreamStats } from '../artifacts/index.js';
import type { StreamInput } from './run-inputs.js';

// Whether a run file can be read before its reader runs: an unreadable file is damage (a warning), not absence.

/** Whether a run file is there and, when it is there but cannot be read, why (an unreadable file is damage, not absence). */
export async function probeStream(file: string): Promise<{ present: boolean; unreadable?: string }> {
  try {
    await (await openRunFile(file)).close();
    return { present: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { present: false };
    return { present: true, unreadable: describeReadError(error) };
  }
}

/** `EACCES: permission denied`: the errno code and message of a failed read, here or in its cause. */
export function describeReadError(error: unknown): string {
  if (error instanceof RunFileRefusedError) return refusedReason(error);
  const errno = findErrno(error);
  return errno ? `${errno.code}: ${errno.message.replace(/^[A-Z]+: /, '')}` : String(error);
}

/** A refused file, said for a stream warning: what it is, and that it was not read. */
function refusedReason(error: RunFileRefusedError): string {
  return `refused: ${error.reason}; a run-dir file is read only when it is a regular file of its own, never through a link`;
}

export function findErrno(error: unknown): NodeJS.ErrnoException | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (typeof (e as NodeJS.ErrnoException).code === 'string') return e;
  }
  return undefined;
}

export function unreadableStream(name: string, why: string): StreamInput {
  return { name, present: true, stats: createStreamStats(name), unreadable: why };
}

export function absentStream(name: string): StreamInput {
  return { name, present: false, stats: createStreamStats(name) };
}
