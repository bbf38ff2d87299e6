// The incremental cursor over an append-only, time-ordered log: byte offset, the partial last line carried over,
// and running StreamStats. Feeding it the bytes appended since the last read costs O(appended bytes). Pure: it sees
// Buffers, never files. Each chunk is decoded once as latin1 and its lines are handed to the parser as ByteLines;
// one trailing CR is dropped (CRLF logs).
import { createStreamStats, type StreamStats } from '../../artifacts/index.js';
import type { LineOutcome, LogLineParser } from './line-outcome.js';
import { toSkip } from './line-outcome.js';

export interface LogWindow {
  /** Records with tsMs ≥ fromMs … */
  fromMs?: number | undefined;
  /** … and tsMs < toMs are kept. */
  toMs?: number | undefined;
  /** Lines are written when a request ends and may be slightly out of order: reading goes on this long past toMs. */
  slackMs: number;
}

export interface LogCursor {
  /** File offset just past the last byte fed (the carry included). */
  offset: number;
  /** Bytes after the last newline, waiting for the rest of their line. */
  carry: Buffer | undefined;
  /** Lines consumed since the cursor's start offset. */
  lineNumber: number;
  stats: StreamStats;
  /** A record at or beyond toMs + slackMs was seen: the window is complete. */
  pastWindow: boolean;
}

export interface FeedOptions<R> {
  parser: LogLineParser<R>;
  window: LogWindow;
  /** Called for each record in the window, e.g. to update running aggregates. */
  onRecord?: ((record: R) => void) | undefined;
  /** Which records in the window are returned one by one; default all. The others are counted and aggregated only. */
  keep?: ((record: R) => boolean) | undefined;
}

const maxRejectedExamples = 5;
const maxCarryBytes = 64 * 1024 * 1024;

export function createLogCursor(source: string, startOffset = 0): LogCursor {
  return {
    offset: startOffset,
    carry: undefined,
    lineNumber: 0,
    stats: createStreamStats(source),
    pastWindow: false,
  };
}

function countSkip(stats: StreamStats, reason: string): void {
  stats.skipped++;
  stats.skippedByReason[reason] = (stats.skippedByReason[reason] ?? 0) + 1;
}

function countReject(cursor: LogCursor, reason: string, byteOffset: number): void {
  cursor.stats.rejected++;
  if (cursor.stats.rejectedExamples.length < maxRejectedExamples)
    cursor.stats.rejectedExamples.push({
      line: cursor.lineNumber,
      reason: `${reason} (byte offset ${byteOffset})`,
    });
}

/** Counts one parsed line and keeps its record when it is in the window; returns false once the window is complete. */
function accountLine<R extends { tsMs: number }>(
  cursor: LogCursor,
  options: FeedOptions<R>,
  outcome: LineOutcome<R>,
  { byteOffset, out }: { byteOffset: number; out: R[] },
): boolean {
  cursor.lineNumber++;
  cursor.stats.lines++;
  if (!outcome.ok) {
    if (outcome.rejected) countReject(cursor, outcome.reason, byteOffset);
    else countSkip(cursor.stats, outcome.reason);
    return true;
  }
  const { fromMs, toMs, slackMs } = options.window;
  const tsMs = outcome.record.tsMs;
  if (fromMs !== undefined && tsMs < fromMs) countSkip(cursor.stats, 'before window');
  else if (toMs !== undefined && tsMs >= toMs) {
    countSkip(cursor.stats, 'after window');
    cursor.pastWindow = tsMs >= toMs + slackMs;
  } else {
    cursor.stats.records++;
    if (options.keep === undefined || options.keep(outcome.record)) out.push(outcome.record);
    options.onRecord?.(outcome.record);
  }
  return !cursor.pastWindow;
}

/** Parses the complete lines of bytes[from, …) (file offset of byte 0: fileOffset); returns the index past the last. */
function feedLines<R extends { tsMs: number }>(
  cursor: LogCursor,
  options: FeedOptions<R>,
  { bytes, from, fileOffset, out }: { bytes: Buffer; from: number; fileOffset: number; out: R[] },
): number {
  const text = bytes.toString('latin1', 0, bytes.lastIndexOf(10) + 1);
  let start = from;
  for (
    let newline = bytes.indexOf(10, start);
    newline >= 0 && !cursor.pastWindow;
    newline = bytes.indexOf(10, start)
  ) {
    const end = newline > start && bytes[newline - 1] === 13 ? newline - 1 : newline;
    const outcome = options.parser.parseLine({ bytes, start, end, text });
    accountLine(cursor, options, outcome, { byteOffset: fileOffset + start, out });
    cursor.stats.bytes += newline + 1 - start;
    start = newline + 1;
  }
  return start;
}

/**
 * Feeds the next bytes of the file; returns the records kept, appended to `out` when given (a reader gathering
 * several chunks' records in one array). The chunk may be reused by the caller afterwards.
 */
export function feedLogCursor<R extends { tsMs: number }>(
  cursor: LogCursor,
  chunk: Buffer,
  options: FeedOptions<R>,
  out: R[] = [],
): R[] {
  if (cursor.pastWindow) return out;
  let position = 0;
  const carry = cursor.carry;
  if (carry !== undefined) {
    const newline = chunk.indexOf(10);
    if (newline < 0) {
      cursor.carry = carry.length + chunk.length > maxCarryBytes ? carry : Buffer.concat([carry, chunk]);
      cursor.offset += chunk.length;
      return out;
    }
    cursor.carry = undefined;
    const bytes = Buffer.concat([carry, chunk.subarray(0, newline + 1)]);
    feedLines(cursor, options, { bytes, from: 0, fileOffset: cursor.offset - carry.length, out });
    position = newline + 1;
  }
  if (!cursor.pastWindow)
    position = feedLines(cursor, options, { bytes: chunk, from: position, fileOffset: cursor.offset, out });
  if (!cursor.pastWindow && position < chunk.length) cursor.carry = Buffer.from(chunk.subarray(position));
  cursor.offset += chunk.length;
  return out;
}

/** At the end of a one-shot read: the unterminated last line is parsed if it can be, else skipped as in flight. */
export function flushLogCursor<R extends { tsMs: number }>(cursor: LogCursor, options: FeedOptions<R>): R[] {
  const carry = cursor.carry;
  cursor.carry = undefined;
  const out: R[] = [];
  if (carry === undefined || cursor.pastWindow) return out;
  cursor.stats.bytes += carry.length;
  const end = carry[carry.length - 1] === 13 ? carry.length - 1 : carry.length;
  const outcome = options.parser.parseLine({ bytes: carry, start: 0, end, text: carry.toString('latin1') });
  accountLine(cursor, options, outcome.ok ? outcome : toSkip('unterminated last line'), {
    byteOffset: cursor.offset - carry.length,
    out,
  });
  return out;
}
