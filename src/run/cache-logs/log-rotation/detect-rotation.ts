import type { RemoteFileRecord } from './parse-file-records.js';

/** One file the log was during the run: the file at the start, then one more per rotation. */
export interface LogGeneration {
  /** 0 = the file that was the log when the capture started; +1 per rotation seen. */
  index: number;
  inode: number;
  /** Its first line once a complete one was seen (see toFingerprint). */
  fingerprint: string | undefined;
  /** Where the run window starts in this file: the size at the start for generation 0, else 0. */
  startOffset: number;
  /** The run-dir copy holds this file's bytes [startOffset, appendedOffset). */
  appendedOffset: number;
  /** Where those bytes start in the run-dir copy. */
  localOffset: number;
  /** The largest size a poll saw it at. */
  seenSizeBytes: number;
}

/** The generation a file seen at the log's path starts (at the start of the capture, or after a rotation). */
export function createGeneration(options: {
  index: number;
  record: RemoteFileRecord;
  startOffset: number;
  localOffset: number;
}): LogGeneration {
  const { index, record, startOffset, localOffset } = options;
  return {
    index,
    inode: record.inode,
    fingerprint: record.fingerprint,
    startOffset,
    appendedOffset: startOffset,
    localOffset,
    seenSizeBytes: record.sizeBytes,
  };
}

/**
 * Why the file now at the log's path is no longer the generation being followed, or undefined when it still is.
 * copytruncate keeps the inode but shrinks the file (or changes its first line, once it grew back); rename + create
 * gives a new inode; between rename and create the path is absent.
 */
export function detectRotation(
  generation: LogGeneration,
  observed: RemoteFileRecord | undefined,
): string | undefined {
  if (observed === undefined) return 'the file is gone (renamed, not re-created yet)';
  if (observed.inode !== generation.inode)
    return `the file was replaced (inode ${generation.inode} → ${observed.inode})`;
  if (observed.sizeBytes < generation.appendedOffset)
    return `the file shrank from ${generation.appendedOffset} to ${observed.sizeBytes} bytes`;
  if (
    generation.fingerprint !== undefined &&
    observed.fingerprint !== undefined &&
    observed.fingerprint !== generation.fingerprint
  )
    return 'its first line changed (truncated and written again)';
  return undefined;
}
