// Windows by binary search, and the incremental tail (append, partial line, truncation), on generated temp logs.
import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateZotLog, renderZotLine } from '../../../../bench/generate-logs.js';
import { createLogTail } from '../../../../src/collect/log-reader/create-log-tail.js';
import { readRegistryLog } from '../../../../src/collect/log-reader/read-registry-log.js';
import { createRegistryLineParser } from '../../../../src/collect/logs/create-registry-line-parser.js';
import { summarizeRegistry } from '../../../../src/collect/logs/summarize-registry.js';

const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-log-tail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const startMs = Date.UTC(2026, 2, 14, 8);
const hourMs = 3_600_000;

describe('readRegistryLog with a window', () => {
  const file = path.join(dir, 'zot.jsonl');
  generateZotLog({ path: file, sizeBytes: 4_000_000, startMs, spanMs: hourMs, layout: 'slog', seed: 3 });

  it('returns exactly the records of the window and reads only a little more than the window', async () => {
    const full = await readRegistryLog({ path: file, format: 'zot', cachePatterns: ['*/cache:*'] });
    const window = { fromMs: startMs + 20 * 60_000, toMs: startMs + 30 * 60_000 };
    const sliced = await readRegistryLog({
      path: file,
      format: 'zot',
      cachePatterns: ['*/cache:*'],
      ...window,
    });
    expect(sliced.records.map((record) => record.path)).toEqual(
      sliceWindow(full.records, window).map((record) => record.path),
    );
    expect(sliced.records.length).toBeGreaterThan(100);
    expect(sliced.stats.bytes).toBeLessThan(statSync(file).size / 4);
    expect(sliced.stats.lines).toBe(sliced.stats.records + sliced.stats.skipped + sliced.stats.rejected);
  });

  it('reads the same records in small chunks as in one (the next chunk is read while one is parsed)', async () => {
    const parser = createRegistryLineParser({ format: 'zot', cachePatterns: ['*/cache:*'] });
    const read = (chunkBytes: number | undefined, window: { fromMs?: number; toMs?: number } = {}) =>
      createLogTail({ ...parser, path: file, chunkBytes, ...window }).readToEnd();
    const whole = await read(undefined);
    // Truth from outside the reader: the file's own newlines.
    const newlines = readFileSync(file).reduce((count, byte) => count + (byte === 10 ? 1 : 0), 0);
    expect(whole.stats.lines).toBe(newlines);
    // 997 bytes: lines split across chunks, and several hundred reads each started before the last chunk is parsed.
    const small = await read(997);
    expect(small.records).toEqual(whole.records);
    expect(small.stats.lines).toBe(newlines);
    // A window that ends early stops with a read in flight; the records are the window's all the same.
    const window = { fromMs: startMs + 5 * 60_000, toMs: startMs + 10 * 60_000 };
    const early = await read(997, window);
    expect(early.records).toEqual(sliceWindow(whole.records, window));
    expect(early.stats.bytes).toBeLessThan(statSync(file).size / 4);
  });

  it('an empty window yields no records and says why', async () => {
    const { records, stats } = await readRegistryLog({
      path: file,
      format: 'zot',
      cachePatterns: [],
      fromMs: startMs + 2 * hourMs,
      toMs: startMs + 3 * hourMs,
    });
    expect(records).toEqual([]);
    expect(stats.records).toBe(0);
    expect(Object.keys(stats.skippedByReason)).toContain('before window');
  });
});

const pushLine = (tsMs: number, uuid: string, contentLength: string, method = 'PATCH') =>
  renderZotLine(
    {
      tsMs,
      clientIP: '10.0.0.5:4000',
      method,
      path:
        method === 'PATCH'
          ? `/v2/rocm/cache/blobs/uploads/${uuid}`
          : `/v2/rocm/cache/blobs/uploads/${uuid}?digest=sha256%3Aabc`,
      statusCode: method === 'PATCH' ? 202 : 201,
      latency: '0s',
      bodySize: 0,
      headers: { 'Content-Length': [contentLength] },
      goroutine: 1,
    },
    'slog',
  );

describe('createLogTail', () => {
  it('returns only new records after an append, holds back a partial line, and keeps running aggregates', async () => {
    const file = path.join(dir, 'tail.jsonl');
    writeFileSync(file, `${pushLine(startMs, 'u1', '100')}\n${pushLine(startMs + 1, 'u1', '0', 'PUT')}\n`);
    const parser = createRegistryLineParser({ format: 'zot', cachePatterns: ['*/cache:*'] });
    const tail = createLogTail({
      path: file,
      ...parser,
      aggregate: {
        create: () => ({ writes: 0 }),
        add: (aggregate: { writes: number }, record) =>
          void (aggregate.writes += record.kind === 'blob-write' ? 1 : 0),
      },
    });
    const first = await tail.read();
    expect(first.records.map((record) => [record.kind, record.bytes])).toEqual([
      ['other', 100],
      ['blob-write', 100],
    ]);
    const second = pushLine(startMs + 2, 'u2', '50');
    appendFileSync(file, `${second}\n${pushLine(startMs + 3, 'u2', '7', 'PUT').slice(0, 30)}`);
    const next = await tail.read();
    expect(next.records.map((record) => record.method)).toEqual(['PATCH']);
    appendFileSync(file, `${pushLine(startMs + 3, 'u2', '7', 'PUT').slice(30)}\n`);
    const last = await tail.read();
    expect(last.records.map((record) => [record.kind, record.bytes])).toEqual([['blob-write', 57]]);
    expect(last.stats).toMatchObject({
      lines: 4,
      records: 4,
      skipped: 0,
      rejected: 0,
      bytes: statSync(file).size,
    });
    expect(last.aggregate).toEqual({ writes: 2 });
    expect((await tail.read()).records).toEqual([]);
  });

  it('starts over when the file is truncated (rotated)', async () => {
    const file = path.join(dir, 'rotate.jsonl');
    writeFileSync(file, `${pushLine(startMs, 'a', '1')}\n${pushLine(startMs, 'b', '2')}\n`);
    const tail = createLogTail({ path: file, ...createRegistryLineParser({ format: 'zot' }) });
    expect((await tail.read()).records).toHaveLength(2);
    truncateSync(file, 0);
    appendFileSync(file, `${pushLine(startMs + 5, 'c', '3')}\n`);
    const after = await tail.read();
    expect(after.reset).toBe(true);
    expect(after.records.map((record) => record.bytes)).toEqual([3]);
    expect(after.stats.lines).toBe(1);
  });

  it('keeps lines that are out of time order within the slack (clock skew between writers)', async () => {
    const file = path.join(dir, 'skew.jsonl');
    const lines = [0, 1000, 3000, 2500, 4000, 9000].map((offset, index) =>
      pushLine(startMs + offset, `s${index}`, '1'),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    const parser = createRegistryLineParser({ format: 'zot' });
    const { records } = await createLogTail({
      path: file,
      ...parser,
      fromMs: startMs + 2000,
      toMs: startMs + 4000,
      slackMs: 1000,
    }).readToEnd();
    expect(records.map((record) => Math.floor(record.tsMs - startMs))).toEqual([3000, 2500]);
    expect(summarizeRegistry(records).requests).toBe(2);
  });
});

/** Records with fromMs ≤ tsMs < toMs (either bound optional), in their original order. */
function sliceWindow<R extends { tsMs: number }>(
  records: readonly R[],
  window: { fromMs?: number; toMs?: number },
): R[] {
  const fromMs = window.fromMs ?? -Infinity;
  const toMs = window.toMs ?? Infinity;
  return records.filter((record) => record.tsMs >= fromMs && record.tsMs < toMs);
}
