// What the native scanner tests share: the scanner, both paths (with and without it) on the same bytes, fuzz lines.
import { expect } from 'vitest';
import { toByteLine } from '../../../../src/collect/logs/byte-line.js';
import type { LineOutcome, LogLineParser } from '../../../../src/collect/logs/line-outcome.js';
import type { LogWindow } from '../../../../src/collect/logs/log-cursor.js';
import { createLogCursor, feedLogCursor, flushLogCursor } from '../../../../src/collect/logs/log-cursor.js';
import type { LineScanner } from '../../../../src/collect/native/line-scanner.js';
import { loadLineScannerState } from '../../../../src/collect/native/load-line-scanner.js';
import type { StreamStats } from '../../../../src/collect/types.js';
import type { Random } from '../../../../src/shared/random.js';
import { createRandom } from '../../../../src/shared/random.js';
import { mutateText } from '../node-exporter/mutate-text.js';

export const isOff = process.env.ROCM_PERF_NATIVE === '0';
export const modes = ['all', 'writes'] as const;
export type RecordsKept = (typeof modes)[number];

/** The loader's reason, with the command that builds the addon (most reasons name it already). */
export const toBuildHint = (description: string) =>
  description.includes('npm run build:native') ? description : `${description}; run \`npm run build:native\``;

/** The loaded scanner; a test that needs it fails (never skips) when it is not built. */
export function requireScanner(): LineScanner {
  const { scanner, description } = loadLineScannerState();
  if (scanner === undefined) throw new Error(`native scanner not loaded: ${toBuildHint(description)}`);
  return scanner;
}

export const toBytes = (lines: Buffer[]) => Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')]));

export interface StreamResult<R> {
  records: R[];
  stats: StreamStats;
}

export interface ChunkOptions {
  /** Chunk sizes are drawn from [1, maxChunkBytes] with this seed; 0: the whole buffer in one chunk. */
  seed?: number;
  maxChunkBytes?: number;
  window?: LogWindow;
}

export interface StreamOptions<R> extends ChunkOptions {
  parser: LogLineParser<R>;
  /** The cursor's source name. */
  source: string;
}

/** bytes through feedLogCursor (in chunks) and flushLogCursor; records are copied as they come (scratch records). */
export function readStream<R extends { tsMs: number }>(
  bytes: Buffer,
  options: StreamOptions<R>,
): StreamResult<R> {
  const records: R[] = [];
  const cursor = createLogCursor(options.source);
  const feed = {
    parser: options.parser,
    window: options.window ?? { slackMs: 0 },
    onRecord: (record: R) => records.push({ ...record }),
  };
  const random = createRandom(options.seed ?? 1);
  const maxChunkBytes = options.maxChunkBytes ?? 0;
  for (let at = 0; at < bytes.length;) {
    const size = maxChunkBytes === 0 ? bytes.length : 1 + random.int(maxChunkBytes);
    feedLogCursor(cursor, bytes.subarray(at, at + size), feed);
    at += size;
  }
  flushLogCursor(cursor, feed);
  return { records, stats: cursor.stats };
}

/** The two paths of one format: its parser with the scanner (native) or without (JavaScript). */
export interface ComparedPaths<R> {
  createParser: (scanner: LineScanner | undefined, recordsKept: RecordsKept) => LogLineParser<R>;
  /**
   * The one difference the paths may show, under recordsKept 'writes': the JavaScript records as the native reader's
   * lean (counted-only) ones read, where the native record is lean; every other record is returned as it is.
   */
  toLeanAsNative: (javascript: R[], native: R[]) => R[];
}

export interface CompareOptions extends ChunkOptions {
  recordsKept: RecordsKept;
}

export interface SameStreamOptions<R> extends ComparedPaths<R>, CompareOptions {
  /** The cursor's source name. */
  source: string;
}

/** Both paths on the same bytes: equal results, and every line accounted for. Returns the native result. */
export function expectSameStream<R extends { tsMs: number }>(
  bytes: Buffer,
  options: SameStreamOptions<R>,
): StreamResult<R> {
  const { createParser, recordsKept } = options;
  const native = readStream(bytes, { ...options, parser: createParser(requireScanner(), recordsKept) });
  const javascript = readStream(bytes, { ...options, parser: createParser(undefined, recordsKept) });
  expect(native.stats).toEqual(javascript.stats);
  expect(native.records).toEqual(
    recordsKept === 'writes'
      ? options.toLeanAsNative(javascript.records, native.records)
      : javascript.records,
  );
  const { stats } = native;
  expect(stats.records + stats.skipped + stats.rejected).toBe(stats.lines);
  // A window ends the read at the first record past it (and its slack).
  if (options.window === undefined) expect(stats.bytes).toBe(bytes.length);
  return native;
}

const snapshot = <R extends { tsMs: number }>(outcome: LineOutcome<R>) =>
  outcome.ok ? { ok: true, record: { ...outcome.record } } : outcome;

interface OutcomesOptions<R> {
  createParser: ComparedPaths<R>['createParser'];
  scanner: LineScanner | undefined;
  recordsKept: RecordsKept;
}

/** Each line's outcome (reasons included), through the chunk reader or through the JavaScript bytes path. */
function readOutcomes<R extends { tsMs: number }>(lines: Buffer[], options: OutcomesOptions<R>) {
  const { scanner } = options;
  const parser = options.createParser(scanner, options.recordsKept);
  const { chunkReader, parseBytes } = parser;
  return lines.map((line) => {
    const chunk = Buffer.concat([line, Buffer.from('\n')]);
    // The cursor hands the JavaScript path the line without one trailing CR; the chunk reader drops it itself.
    const end = line.at(-1) === 13 ? line.length - 1 : line.length;
    if (scanner === undefined)
      return snapshot(parseBytes?.(toByteLine(line.subarray(0, end))) ?? parser.parseLine(''));
    if (chunkReader?.scan(chunk, 0, chunk.length) !== 1)
      throw new Error('the chunk reader did not read the line');
    return snapshot(chunkReader.outcome(0));
  });
}

export interface SameOutcomesOptions<R> extends ComparedPaths<R> {
  /** Whether the scanner reads the line itself (row accepted) rather than declining it to the exact parser. */
  isReadNatively: (line: Buffer) => boolean;
}

/** Line by line, both paths agree in both modes; returns how many lines the native scanner read itself. */
export function expectSameOutcomes<R extends { tsMs: number }>(
  lines: Buffer[],
  options: SameOutcomesOptions<R>,
): number {
  const { createParser, toLeanAsNative } = options;
  for (const recordsKept of modes) {
    const native = readOutcomes(lines, { createParser, scanner: requireScanner(), recordsKept });
    const javascript = readOutcomes(lines, { createParser, scanner: undefined, recordsKept }).map(
      (outcome, index) => {
        const nativeOutcome = native[index];
        return recordsKept === 'writes' && outcome.ok && nativeOutcome?.ok === true
          ? { ...outcome, record: toLeanAsNative([outcome.record], [nativeOutcome.record])[0] }
          : outcome;
      },
    );
    const differing = native.flatMap((outcome, index) =>
      JSON.stringify(outcome) === JSON.stringify(javascript[index])
        ? []
        : [{ line: lines[index]?.toString('latin1'), native: outcome, javascript: javascript[index] }],
    );
    expect(differing).toEqual([]);
    expect(native).toEqual(javascript);
  }
  return lines.filter((line) => options.isReadNatively(line)).length;
}

export interface MutateLinesOptions {
  /** The lines to mutate (latin1 text), one picked at random for each mutated line. */
  seeds: string[];
  /** The format's tokens, inserted over or into a seed line. */
  tokens: string[];
  count: number;
  random: Random;
}

/** Seed lines, each with 1-3 edits: the repo's text mutator, the format's tokens, or raw byte flips. */
export function mutateLines({ seeds, tokens, count, random }: MutateLinesOptions): Buffer[] {
  return Array.from({ length: count }, () => {
    const seedLine = seeds[random.int(seeds.length)] ?? '';
    const pick = random.int(3);
    let bytes: Buffer;
    if (pick === 0) bytes = Buffer.from(mutateText(seedLine, random.next));
    else if (pick === 1) {
      const at = random.int(seedLine.length + 1);
      const token = tokens[random.int(tokens.length)] ?? '';
      bytes = Buffer.from(seedLine.slice(0, at) + token + seedLine.slice(at + random.int(2) * token.length));
    } else {
      bytes = Buffer.from(seedLine, 'latin1');
      for (let round = 1 + random.int(3); round > 0; round--)
        bytes[random.int(bytes.length)] = random.int(256);
    }
    // One line each: newlines the mutations made become spaces.
    return Buffer.from(bytes.toString('latin1').replaceAll('\n', ' '), 'latin1');
  });
}
