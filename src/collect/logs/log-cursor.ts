// The incremental cursor over an append-only, time-ordered log: byte offset, the partial last line carried over,
// and running StreamStats. Feeding it the bytes appended since the last read costs O(appended bytes).
// Pure: it sees Buffers, never files. Lines are decoded as UTF-8 leniently (invalid bytes become U+FFFD).
import type { StreamStats } from '../types.js';
import { createStreamStats } from '../types.js';
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
  /** Called for each record kept, e.g. to update running aggregates. */
  onRecord?: (record: R) => void;
}

const segmentBytes = 64 * 1024;
const maxRejectedExamples = 5;
const maxCarryBytes = 64 * 1024 * 1024;

export function createLogCursor(source: string, startOffset = 0): LogCursor {
  return { offset: startOffset, carry: undefined, lineNumber: 0, stats: createStreamStats(source), pastWindow: false };
}

function countSkip(stats: StreamStats, reason: string): void {
  stats.skipped++;
  stats.skippedByReason[reason] = (stats.skippedByReason[reason] ?? 0) + 1;
}

function countReject(cursor: LogCursor, reason: string, byteOffset: () => number): void {
  cursor.stats.rejected++;
  if (cursor.stats.rejectedExamples.length < maxRejectedExamples) {
    cursor.stats.rejectedExamples.push({ line: cursor.lineNumber, reason: `${reason} (byte offset ${byteOffset()})` });
  }
}

/** Counts one parsed line and keeps its record when it is in the window; returns false once the window is complete. */
function accountLine<R extends { tsMs: number }>(cursor: LogCursor, outcome: LineOutcome<R>, options: FeedOptions<R>, out: R[], byteOffset: () => number): boolean {
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
    out.push(outcome.record);
    options.onRecord?.(outcome.record);
  }
  return !cursor.pastWindow;
}

const stripCr = (line: string) => (line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line);

function processLine<R extends { tsMs: number }>(cursor: LogCursor, line: string, options: FeedOptions<R>, out: R[], byteOffset: () => number): boolean {
  return accountLine(cursor, options.parser.parseLine(stripCr(line)), options, out, byteOffset);
}

/** Processes the complete lines in bytes[start, end) (end is a newline index); returns the bytes consumed. */
function processSegment<R extends { tsMs: number }>(cursor: LogCursor, bytes: Buffer, range: { start: number; end: number; fileOffset: number }, options: FeedOptions<R>, out: R[]): number {
  const text = bytes.toString('utf8', range.start, range.end);
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const at = lineStart;
    const byteOffset = () => range.fileOffset + Buffer.byteLength(text.slice(0, at));
    if (!processLine(cursor, text.slice(lineStart, lineEnd), options, out, byteOffset)) {
      return Buffer.byteLength(text.slice(0, lineEnd)) + 1;
    }
    lineStart = lineEnd + 1;
  }
  return range.end - range.start + 1;
}

function feedCarry<R extends { tsMs: number }>(cursor: LogCursor, chunk: Buffer, options: FeedOptions<R>, out: R[]): number {
  const carry = cursor.carry;
  if (carry === undefined) return 0;
  const newline = chunk.indexOf(10);
  if (newline < 0) {
    cursor.carry = carry.length + chunk.length > maxCarryBytes ? carry : Buffer.concat([carry, chunk]);
    return chunk.length;
  }
  cursor.carry = undefined;
  const line = Buffer.concat([carry, chunk.subarray(0, newline + 1)]);
  const fileOffset = cursor.offset - carry.length;
  cursor.stats.bytes += line.length;
  processSegment(cursor, line, { start: 0, end: line.length - 1, fileOffset }, options, out);
  return newline + 1;
}

/** Feeds the next bytes of the file; returns the records kept. The chunk may be reused by the caller afterwards. */
export function feedLogCursor<R extends { tsMs: number }>(cursor: LogCursor, chunk: Buffer, options: FeedOptions<R>): R[] {
  const out: R[] = [];
  if (cursor.pastWindow) return out;
  let position = feedCarry(cursor, chunk, options, out);
  const lastNewline = chunk.lastIndexOf(10);
  while (position <= lastNewline && !cursor.pastWindow) {
    const soft = position + segmentBytes;
    const end = soft >= lastNewline ? lastNewline : chunk.indexOf(10, soft);
    const fileOffset = cursor.offset + position;
    const consumed = processSegment(cursor, chunk, { start: position, end, fileOffset }, options, out);
    cursor.stats.bytes += consumed;
    position += consumed;
  }
  if (!cursor.pastWindow && position < chunk.length && cursor.carry === undefined) cursor.carry = Buffer.from(chunk.subarray(position));
  cursor.offset += chunk.length;
  return out;
}

/** At the end of a one-shot read: the unterminated last line is parsed if it can be, else skipped as in flight. */
export function flushLogCursor<R extends { tsMs: number }>(cursor: LogCursor, options: FeedOptions<R>): R[] {
  const carry = cursor.carry;
  cursor.carry = undefined;
  if (carry === undefined || cursor.pastWindow) return [];
  const out: R[] = [];
  cursor.stats.bytes += carry.length;
  const outcome = options.parser.parseLine(stripCr(carry.toString('utf8')));
  if (outcome.ok) accountLine(cursor, outcome, options, out, () => cursor.offset - carry.length);
  else accountLine(cursor, toSkip('unterminated last line'), options, out, () => cursor.offset - carry.length);
  return out;
}
