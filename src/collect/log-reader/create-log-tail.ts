// An incremental reader of one append-only log file: the first read finds the window's start by binary search,
// later reads parse only the bytes appended since. A file that shrank or was replaced starts over (`reset`).
// Every reader of it reads a run-dir file, so it opens confined (openRunFile: no link, no special file).
import type { FileHandle } from 'node:fs/promises';
import { openRunFile } from '../../shared/open-run-file.js';
import path from 'node:path';
import type { StreamStats } from '../../artifacts/index.js';
import type { LogCursor, LogWindow } from '../logs/log-cursor.js';
import { createLogCursor, feedLogCursor, flushLogCursor } from '../logs/log-cursor.js';
import type { LogLineParser } from '../logs/line-outcome.js';
import { findWindowOffset } from './find-window-offset.js';

export interface LogTailOptions<R, A = undefined> extends LogLineParser<R> {
  path: string;
  fromMs?: number | undefined;
  toMs?: number | undefined;
  /** How far lines may be out of time order; default 5000 ms. */
  slackMs?: number;
  /** Label for StreamStats; default the file's base name. */
  source?: string;
  chunkBytes?: number;
  /** Running aggregate over every record in the window, updated in place as records arrive (re-created on reset). */
  aggregate?: { create: () => A; add: (aggregate: A, record: R) => void };
  /**
   * Which records a read returns one by one; default all. The others are still counted in stats and added to the
   * aggregate, but never held in memory.
   */
  keep?: (record: R) => boolean;
}

interface LogTailRead<R, A = undefined> {
  /** Records since the previous read (those `keep` accepts, when given). */
  records: R[];
  /** Cumulative since the cursor (re)started. */
  stats: StreamStats;
  aggregate: A;
  /** The file shrank or was replaced, so the cursor started over. */
  reset: boolean;
  /** File offset the next read starts from. */
  offset: number;
}

export interface LogTail<R, A = undefined> {
  /** New records since the last read. The last line is kept back until its newline arrives. */
  read(): Promise<LogTailRead<R, A>>;
  /** Like read, then also parses an unterminated last line (for one-shot reads of a finished log). */
  readToEnd(): Promise<LogTailRead<R, A>>;
}

interface TailState<A> {
  cursor: LogCursor | undefined;
  inode: number | undefined;
  aggregate: A;
}

export function createLogTail<R extends { tsMs: number }, A = undefined>(
  options: LogTailOptions<R, A>,
): LogTail<R, A> {
  const window: LogWindow = { fromMs: options.fromMs, toMs: options.toMs, slackMs: options.slackMs ?? 5000 };
  const source = options.source ?? path.basename(options.path);
  const chunkBytes = options.chunkBytes ?? 4 * 1024 * 1024;
  const chunks = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)] as const;
  const createAggregate = () => options.aggregate?.create() as A;
  const state: TailState<A> = { cursor: undefined, inode: undefined, aggregate: createAggregate() };
  const add = options.aggregate?.add;
  const onRecord = add === undefined ? undefined : (record: R) => add(state.aggregate, record);
  const feedOptions = { parser: options, window, onRecord, keep: options.keep };

  async function read(final: boolean): Promise<LogTailRead<R, A>> {
    const handle = await openRunFile(options.path);
    try {
      const { size, ino } = await handle.stat();
      const reset = state.cursor !== undefined && (size < state.cursor.offset || ino !== state.inode);
      if (state.cursor === undefined || reset) {
        options.restart?.();
        const start =
          window.fromMs === undefined
            ? 0
            : await findWindowOffset({
                handle,
                sizeBytes: size,
                targetMs: window.fromMs - window.slackMs,
                timeOfLine: options.timeOfLine,
              });
        state.cursor = createLogCursor(source, start);
        state.inode = ino;
        state.aggregate = createAggregate();
      }
      const cursor = state.cursor;
      const records: R[] = [];
      await feedChunks({
        handle,
        cursor,
        sizeBytes: size,
        chunks,
        feed: (bytes) => feedLogCursor(cursor, bytes, feedOptions, records),
      });
      if (final) for (const record of flushLogCursor(cursor, feedOptions)) records.push(record);
      return {
        records,
        stats: structuredClone(cursor.stats),
        aggregate: state.aggregate,
        reset,
        offset: cursor.offset,
      };
    } finally {
      await handle.close();
    }
  }

  return { read: () => read(false), readToEnd: () => read(true) };
}

interface FeedChunksOptions {
  handle: FileHandle;
  cursor: LogCursor;
  sizeBytes: number;
  /** Two buffers: one is parsed while the next chunk is read into the other. */
  chunks: readonly [Buffer, Buffer];
  feed: (bytes: Buffer) => unknown;
}

/**
 * Reads the file from the cursor's offset to sizeBytes, or until the cursor has passed its window, a chunk at a time;
 * the next chunk is read (on libuv's pool) while this one is parsed, so a 300 MB log never waits on its reads.
 */
async function feedChunks(options: FeedChunksOptions): Promise<void> {
  const { handle, cursor, sizeBytes, chunks, feed } = options;
  let position = cursor.offset;
  const readAt = (chunk: Buffer) =>
    handle.read(chunk, 0, Math.min(chunk.length, sizeBytes - position), position);
  let which: 0 | 1 = 0;
  let next = position < sizeBytes ? readAt(chunks[which]) : undefined;
  try {
    while (next !== undefined) {
      const { bytesRead, buffer } = await next;
      next = undefined;
      if (bytesRead === 0) break;
      position += bytesRead;
      which = which === 0 ? 1 : 0;
      if (position < sizeBytes) next = readAt(chunks[which]);
      feed(buffer.subarray(0, bytesRead));
      if (cursor.pastWindow) break;
    }
  } finally {
    // A read still in flight finishes before the caller closes the handle.
    await next?.catch(() => undefined);
  }
}
