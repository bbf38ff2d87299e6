import type { LogSegment } from '../../../artifacts/index.js';
import type { LogGeneration } from './detect-rotation.js';
import { formatFingerprint } from './parse-file-records.js';

// The final slice from its generations: per generation, what a remote file still holds (read at the end), then
// what only the run-dir copy holds (lines copytruncate lost, a deleted rotated file), then — said in a warning, never
// silently — what neither holds.

/** The first offset where two copies of the same bytes differ, over their common length; undefined if none. */
export function findFirstDifference(a: Buffer, b: Buffer): number | undefined {
  const length = Math.min(a.length, b.length);
  if (a.subarray(0, length).equals(b.subarray(0, length))) return undefined;
  let index = 0;
  while (a[index] === b[index]) index++;
  return index;
}

export interface GenerationPiece {
  generation: LogGeneration;
  /**
   * A file on the host holding the generation from its start offset: `lengthBytes` of it, agreeing with the run-dir
   * copy over their common length (checked by digest); `extra` is what it holds past the run-dir copy.
   */
  remote?: { path: string; lengthBytes: number; extra: Buffer } | undefined;
  /** Why there is no remote part: the rotated file was not found, could not be read, or differs. */
  missing?: string | undefined;
  /** The generation is the log itself (not rotated away): its unread bytes are still on the host. */
  isCurrent: boolean;
}

export interface AssembleLogSliceOptions {
  /** The log's path on the host. */
  logPath: string;
  pieces: readonly GenerationPiece[];
}

/** Where the slice's bytes come from, in order: a range of the run dir's run-dir copy, or bytes read at the end. */
export type SlicePart =
  { from: 'run-dir-copy'; offset: number; length: number } | { from: 'bytes'; bytes: Buffer };

export interface AssembledLogSlice {
  parts: SlicePart[];
  sizeBytes: number;
  /** Where the slice ends in the last generation's file. */
  endOffset: number;
  segments: LogSegment[];
  warnings: string[];
}

function describeGeneration(logPath: string, generation: LogGeneration): string {
  const which =
    generation.index === 0
      ? 'the file that was the log at the start'
      : `the file that was the log after rotation ${generation.index}`;
  return `${logPath}: ${which} (${formatFingerprint(generation.fingerprint)})`;
}

function describeMissing(piece: GenerationPiece, logPath: string): string {
  const { generation } = piece;
  const kept =
    generation.appendedOffset > generation.startOffset
      ? `bytes ${generation.startOffset}–${generation.appendedOffset} kept from the copy appended during the run`
      : 'nothing of it was appended during the run';
  const seen =
    generation.seenSizeBytes > generation.appendedOffset
      ? ` (at least bytes ${generation.appendedOffset}–${generation.seenSizeBytes}: a poll saw it at ${generation.seenSizeBytes} bytes)`
      : '';
  const tail = piece.isCurrent
    ? `bytes after offset ${generation.appendedOffset} are still in the log on the host but not in the slice${seen}`
    : `bytes written to it after offset ${generation.appendedOffset} are missing${seen}`;
  return `${describeGeneration(logPath, generation)} ${piece.missing ?? 'could not be read'}; ${kept}; ${tail}`;
}

function pushPart(slice: AssembledLogSlice, part: SlicePart): number {
  const length = part.from === 'bytes' ? part.bytes.length : part.length;
  if (length > 0) slice.parts.push(part);
  slice.sizeBytes += length;
  return length;
}

function pushSegment(slice: AssembledLogSlice, segment: LogSegment): void {
  if (segment.toOffset > segment.fromOffset) slice.segments.push(segment);
}

/**
 * The slice: per generation, the host's file over what it still holds (taken from the run-dir copy where the digests
 * showed them equal, then its extra bytes), then what only the run-dir copy holds.
 */
export function assembleLogSlice({ logPath, pieces }: AssembleLogSliceOptions): AssembledLogSlice {
  const slice: AssembledLogSlice = { parts: [], sizeBytes: 0, endOffset: 0, segments: [], warnings: [] };
  for (const piece of pieces) {
    const { generation, remote } = piece;
    const copiedBytes = generation.appendedOffset - generation.startOffset;
    const fromOffset = generation.startOffset;
    let taken = 0;
    if (remote) {
      taken = pushPart(slice, {
        from: 'run-dir-copy',
        offset: generation.localOffset,
        length: Math.min(remote.lengthBytes, copiedBytes),
      });
      taken += pushPart(slice, { from: 'bytes', bytes: remote.extra });
      pushSegment(slice, {
        generation: generation.index,
        source: 'remote',
        remotePath: remote.path,
        fromOffset,
        toOffset: fromOffset + taken,
      });
    }
    const onlyInCopy = Math.max(0, copiedBytes - taken);
    pushPart(slice, { from: 'run-dir-copy', offset: generation.localOffset + taken, length: onlyInCopy });
    pushSegment(slice, {
      generation: generation.index,
      source: 'live', // run.json's name for bytes from the run-dir copy
      remotePath: logPath,
      fromOffset: fromOffset + taken,
      toOffset: fromOffset + taken + onlyInCopy,
    });
    if (!remote) slice.warnings.push(describeMissing(piece, logPath));
    slice.endOffset = fromOffset + taken + onlyInCopy;
  }
  return slice;
}
