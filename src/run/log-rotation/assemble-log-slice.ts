import type { LogSegment } from '../../artifacts/index.js';
import type { LogGeneration } from './detect-rotation.js';
import { formatFingerprint } from './parse-file-records.js';

// The final slice from its generations: per generation, what a remote file still holds (read at the end), then
// what only the live copy holds (lines copytruncate lost, a deleted rotated file), then — said in a warning, never
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
  /** The live copy: the generation's bytes [startOffset, appendedOffset). */
  appended: Buffer;
  /** A remote file's bytes from startOffset on, already checked against the live copy (findFirstDifference). */
  remote?: { path: string; bytes: Buffer } | undefined;
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

export interface AssembledLogSlice {
  chunks: Buffer[];
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

function pushSegment(slice: AssembledLogSlice, segment: Omit<LogSegment, 'toOffset'>, bytes: Buffer): number {
  if (bytes.length === 0) return segment.fromOffset;
  slice.chunks.push(bytes);
  slice.sizeBytes += bytes.length;
  slice.segments.push({ ...segment, toOffset: segment.fromOffset + bytes.length });
  return segment.fromOffset + bytes.length;
}

export function assembleLogSlice({ logPath, pieces }: AssembleLogSliceOptions): AssembledLogSlice {
  const slice: AssembledLogSlice = { chunks: [], sizeBytes: 0, endOffset: 0, segments: [], warnings: [] };
  for (const piece of pieces) {
    const { generation, appended, remote } = piece;
    const generationIndex = generation.index;
    let offset = generation.startOffset;
    if (remote)
      offset = pushSegment(
        slice,
        { generation: generationIndex, source: 'remote', remotePath: remote.path, fromOffset: offset },
        remote.bytes,
      );
    const live = appended.subarray(Math.min(offset - generation.startOffset, appended.length));
    offset = pushSegment(
      slice,
      { generation: generationIndex, source: 'live', remotePath: logPath, fromOffset: offset },
      live,
    );
    if (!remote) slice.warnings.push(describeMissing(piece, logPath));
    slice.endOffset = offset;
  }
  return slice;
}
