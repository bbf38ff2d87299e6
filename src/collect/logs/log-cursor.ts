// The incremental cursor over an append-only, time-ordered log: byte offset, the partial last line carried over,
// and running StreamStats. Feeding it the bytes appended since the last read costs O(appended bytes).
// Pure: it sees Buffers, never files. Lines are found with indexOf(10) and handed to the parser as bytes
// (parser.parseBytes); a parser without a bytes path gets the line decoded as UTF-8, leniently (invalid bytes
// become U+FFFD). One trailing CR is dropped (CRLF logs). A parser with a chunkReader (the native scanner) is
// handed the chunk's complete lines in batches instead, with the same accounting per line.
import { InternalError } from '../../shared/errors.js';
import type { StreamStats } from '../types.js';
import { createStreamStats } from '../types.js';
import type { ByteLine } from './byte-line.js';
import { decodeLine } from './byte-line.js';
import type { ChunkLineReader, LineOutcome, LogLineParser } from './line-outcome.js';
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

/** One feed call's state: where the records go, and the bytes being read with the file offset of their byte 0. */
interface Feed<R> {
  cursor: LogCursor;
  options: FeedOptions<R>;
  out: R[];
  bytes: Buffer;
  fileOffset: number;
}

const maxRejectedExamples = 5;
const maxCarryBytes = 64 * 1024 * 1024;
// The line handed to parsers (they are synchronous and do not keep it).
const emptyBytes = Buffer.alloc(0);
const line: ByteLine = { bytes: emptyBytes, start: 0, end: 0, text: '' };

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
  if (cursor.stats.rejectedExamples.length < maxRejectedExamples) {
    cursor.stats.rejectedExamples.push({
      line: cursor.lineNumber,
      reason: `${reason} (byte offset ${byteOffset})`,
    });
  }
}

/** Counts one parsed line and keeps its record when it is in the window; returns false once the window is complete. */
function accountLine<R extends { tsMs: number }>(
  feed: Feed<R>,
  outcome: LineOutcome<R>,
  byteOffset: number,
): boolean {
  const { cursor, options } = feed;
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
    if (options.keep === undefined || options.keep(outcome.record)) feed.out.push(outcome.record);
    options.onRecord?.(outcome.record);
  }
  return !cursor.pastWindow;
}

function parseLine<R>(parser: LogLineParser<R>, bytesLine: ByteLine): LineOutcome<R> {
  return parser.parseBytes === undefined
    ? parser.parseLine(decodeLine(bytesLine))
    : parser.parseBytes(bytesLine);
}

/** Points the scratch line at bytes[start, end) without one trailing CR. */
function toLine(bytes: Buffer, start: number, end: number): ByteLine {
  line.bytes = bytes;
  line.start = start;
  line.end = end > start && bytes[end - 1] === 13 ? end - 1 : end;
  return line;
}

/** Lets the last chunk and its text go (the scratch line would otherwise keep them until the next feed). */
function releaseLine(): void {
  line.bytes = emptyBytes;
  line.text = '';
}

/** The latin1 text of bytes[0, end) for the parser's fast path (one decoding per chunk), or '' when it has none. */
function toChunkText(parser: LogLineParser<unknown>, bytes: Buffer, end: number): string {
  return parser.parseBytes === undefined ? '' : bytes.toString('latin1', 0, end);
}

/** processLines through the parser's chunk reader: the lines are found and read a batch at a time. */
function processScannedLines<R extends { tsMs: number }>(
  feed: Feed<R>,
  from: number,
  reader: ChunkLineReader<R>,
): number {
  const { bytes, cursor } = feed;
  const to = bytes.lastIndexOf(10) + 1;
  let start = from;
  while (start < to) {
    const count = reader.scan(bytes, start, to);
    if (count === 0) throw new InternalError(`chunk reader read no line of bytes [${start}, ${to})`);
    for (let i = 0; i < count; i++) {
      const next = reader.lineNext(i);
      const keepGoing = accountLine(feed, reader.outcome(i), feed.fileOffset + start);
      cursor.stats.bytes += next - start;
      start = next;
      if (!keepGoing) return start;
    }
  }
  return start;
}

/** Processes the complete lines of feed.bytes from `from` on; returns the index just past the last line consumed. */
function processLines<R extends { tsMs: number }>(feed: Feed<R>, from: number): number {
  const { bytes, cursor } = feed;
  const parser = feed.options.parser;
  if (parser.chunkReader !== undefined) return processScannedLines(feed, from, parser.chunkReader);
  line.text = toChunkText(parser, bytes, bytes.lastIndexOf(10) + 1);
  let start = from;
  for (let newline = bytes.indexOf(10, start); newline >= 0; newline = bytes.indexOf(10, start)) {
    const keepGoing = accountLine(
      feed,
      parseLine(parser, toLine(bytes, start, newline)),
      feed.fileOffset + start,
    );
    cursor.stats.bytes += newline + 1 - start;
    start = newline + 1;
    if (!keepGoing) break;
  }
  return start;
}

/** Completes the carried partial line with the chunk's first line; returns the chunk bytes consumed. */
function feedCarry<R extends { tsMs: number }>(feed: Feed<R>): number {
  const { cursor, bytes: chunk } = feed;
  const carry = cursor.carry;
  if (carry === undefined) return 0;
  const newline = chunk.indexOf(10);
  if (newline < 0) {
    cursor.carry = carry.length + chunk.length > maxCarryBytes ? carry : Buffer.concat([carry, chunk]);
    return chunk.length;
  }
  cursor.carry = undefined;
  const joined = Buffer.concat([carry, chunk.subarray(0, newline + 1)]);
  processLines({ ...feed, bytes: joined, fileOffset: cursor.offset - carry.length }, 0);
  return newline + 1;
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
  const feed: Feed<R> = { cursor, options, out, bytes: chunk, fileOffset: cursor.offset };
  if (cursor.pastWindow) return feed.out;
  let position = feedCarry(feed);
  if (!cursor.pastWindow && position < chunk.length) position = processLines(feed, position);
  if (!cursor.pastWindow && position < chunk.length && cursor.carry === undefined)
    cursor.carry = Buffer.from(chunk.subarray(position));
  cursor.offset += chunk.length;
  releaseLine();
  return feed.out;
}

/** At the end of a one-shot read: the unterminated last line is parsed if it can be, else skipped as in flight. */
export function flushLogCursor<R extends { tsMs: number }>(cursor: LogCursor, options: FeedOptions<R>): R[] {
  const carry = cursor.carry;
  cursor.carry = undefined;
  if (carry === undefined || cursor.pastWindow) return [];
  const feed: Feed<R> = { cursor, options, out: [], bytes: carry, fileOffset: cursor.offset - carry.length };
  cursor.stats.bytes += carry.length;
  line.text = toChunkText(options.parser, carry, carry.length);
  const outcome = parseLine(options.parser, toLine(carry, 0, carry.length));
  accountLine(feed, outcome.ok ? outcome : toSkip('unterminated last line'), feed.fileOffset);
  releaseLine();
  return feed.out;
}
