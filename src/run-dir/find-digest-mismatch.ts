import type { RunFileRecord } from '../artifacts/index.js';
import { formatCount } from '../shared/format-units.js';

// A file of the run dir against what run.json recorded as the run wrote it (size and SHA-256). Pure: the hashing is
// read-run-digests.ts's.

/** The file as it is now: absent, unreadable, or its size and digest. */
export type FileDigestNow =
  | { state: 'absent' }
  | { state: 'unreadable'; why: string }
  | { state: 'read'; sizeBytes: number; sha256: string };

/** What differs, said for a WARNING naming the file; undefined when the file is as the run wrote it. */
export function findDigestMismatch(
  name: string,
  recorded: RunFileRecord,
  now: FileDigestNow,
): string | undefined {
  if (now.state === 'unreadable') return undefined; // said by the reader's own check, once
  if (now.state === 'read' && now.sha256 === recorded.sha256 && now.sizeBytes === recorded.sizeBytes)
    return undefined;
  const was = `the ${formatCount(recorded.sizeBytes)}-byte file run.json recorded (sha256 ${recorded.sha256.slice(0, 12)}…)`;
  if (now.state === 'absent')
    return `${name}: absent, but the run wrote ${was}; every figure from it is missing`;
  const size = now.sizeBytes === recorded.sizeBytes ? 'same size' : `${formatCount(now.sizeBytes)} bytes`;
  return `${name}: sha256 ${now.sha256.slice(0, 12)}… (${size}) is not ${was}: the file was changed after the run; its figures are marked partial`;
}
