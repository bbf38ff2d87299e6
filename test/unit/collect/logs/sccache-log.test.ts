// The sccache nginx log: lines written by Debian's nginx running the shipped conf (scripts/capture-nginx-fixtures.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../../bench/generate-logs.js';
import { toByteLine } from '../../../../src/collect/logs/byte-line.js';
import { createSccacheParser } from '../../../../src/collect/logs/create-shipped-sccache-parser.js';
import { classifySccache, parseSccachePath } from '../../../../src/collect/logs/classify-sccache.js';
import { createLogCursor, feedLogCursor, flushLogCursor } from '../../../../src/collect/logs/log-cursor.js';
import { summarizeSccache } from '../../../helpers/summarize-sccache.js';
import type { SccacheRecord } from '../../../../src/collect/types.js';
import { findStreamWarnings } from '../../../../src/artifacts/index.js';

const fixtures = path.resolve(import.meta.dirname, '../../../fixtures/nginx');
const expected = JSON.parse(readFileSync(path.join(fixtures, 'sccache-session.expected.json'), 'utf8')) as {
  livePrefix: string;
  runPrefix: string;
  perPrefix: { hits: number; misses: number; writes: number; bytesRead: number; bytesWritten: number };
};

function parseAll(file: string, options: { chunkBytes?: number } = {}) {
  const bytes = readFileSync(path.join(fixtures, file));
  const parser = createSccacheParser({ addressToNode: { '127.0.0.1': 'strix' } });
  const cursor = createLogCursor(file);
  const feed = { parser, window: { slackMs: 0 } };
  const records: SccacheRecord[] = [];
  const step = options.chunkBytes ?? bytes.length;
  for (let offset = 0; offset < bytes.length; offset += step)
    records.push(...feedLogCursor(cursor, bytes.subarray(offset, offset + step), feed));
  records.push(...flushLogCursor(cursor, feed));
  return { records, stats: cursor.stats };
}

describe('the sccache log of the shipped conf', () => {
  it('counts hits, misses, writes and bytes per prefix exactly', () => {
    const { records, stats } = parseAll('sccache-session.log');
    const summary = summarizeSccache(records, {
      livePrefix: expected.livePrefix,
      runPrefix: expected.runPrefix,
    });
    for (const totals of [summary.live, summary.run]) {
      expect(totals).toMatchObject(expected.perPrefix);
      expect(totals?.bytesUnknown).toBe(0);
    }
    expect(stats.lines).toBe(stats.records + stats.skipped + stats.rejected);
    expect(stats.rejected).toBe(0);
    expect(summary.byNode.strix?.hits).toBe(2 * expected.perPrefix.hits);
    expect(findStreamWarnings(stats)).toEqual([]);
  });

  it('reads a line with raw non-UTF-8 bytes and escaped quotes (decoded leniently)', () => {
    const odd = parseAll('sccache-session.log').records.find((record) => record.uri.includes('caf'));
    expect(odd).toMatchObject({
      uri: '/sccache/rocm/gfx1201/café\uFFFD/x',
      status: 404,
      kind: 'other',
      keyPrefix: undefined,
    });
  });

  it('gives the same records for CRLF line endings and for any chunking', () => {
    const reference = parseAll('sccache-session.log').records;
    const crlf = parseAll('crlf-line-endings.log').records;
    expect(
      crlf.map((record) => [record.kind, record.bytes, record.uri.replace(/[^\x20-\x7e]/g, '')]),
    ).toEqual(
      reference.map((record) => [record.kind, record.bytes, record.uri.replace(/[^\x20-\x7e]/g, '')]),
    );
    expect(parseAll('sccache-session.log', { chunkBytes: 97 }).records).toEqual(reference);
  });

  it('skips a truncated last line as in flight instead of rejecting it', () => {
    const { records, stats } = parseAll('partial-last-line.log');
    expect(records.length).toBe(parseAll('sccache-session.log').records.length - 1);
    expect(stats.skippedByReason).toEqual({ 'unterminated last line': 1 });
  });

  it('reads lines of a reordered log_format by key name', () => {
    const parser = createSccacheParser();
    const line =
      '{"status":200,"msec":1796219300.786,"uri":"/sccache/p/e/3/b/e3b0c4","method":"GET","remote_addr":"10.0.0.9","ts":"","request_length":1,"content_length":"","body_bytes_sent":42,"bytes_sent":300,"request_time":0.012,"ua":"","completion":"OK"}';
    expect(parser.parseLine(toByteLine(line))).toEqual({
      ok: true,
      record: {
        tsMs: 1796219300786,
        clientAddress: '10.0.0.9',
        method: 'GET',
        uri: '/sccache/p/e/3/b/e3b0c4',
        status: 200,
        kind: 'hit',
        bytes: 42,
        keyPrefix: 'p',
        durationMs: 12,
      },
    });
  });

  it('says loudly when a log has bytes but no records (another log_format)', () => {
    const parser = createSccacheParser();
    const cursor = createLogCursor('sccache.log');
    feedLogCursor(
      cursor,
      Buffer.from('127.0.0.1 - - [02/Dec/2026:13:30:54 +0000] "GET / HTTP/1.1" 200 0 "" "curl"\n{"a":1}\n'),
      { parser, window: { slackMs: 0 } },
    );
    expect(cursor.stats).toMatchObject({ lines: 2, records: 0, skipped: 1, rejected: 1 });
    expect(findStreamWarnings(cursor.stats)[0]).toMatch(/read \d+ bytes in 2 lines but found no records/);
  });
});

describe('classifySccache', () => {
  const key = 'e/3/b/e3b0c442';
  it.each([
    ['GET', 200, `/sccache/rocm/${key}`, 'hit'],
    ['GET', 206, `/sccache/rocm/${key}`, 'hit'],
    ['GET', 404, `/sccache/rocm/${key}`, 'miss'],
    ['GET', 404, '/sccache/rocm/e/3/', 'other'],
    ['PUT', 201, `/sccache/rocm/${key}`, 'write'],
    ['PUT', 204, `/sccache/rocm/${key}`, 'write'],
    ['PUT', 413, `/sccache/rocm/${key}`, 'other'],
    ['PUT', 201, '/sccache/rocm/.sccache_check', 'overhead'],
    ['GET', 404, '/sccache/rocm/.sccache_check', 'overhead'],
    ['PROPFIND', 207, '/sccache/rocm/e/3/b/', 'overhead'],
    ['MKCOL', 201, '/sccache/rocm/e/', 'overhead'],
    ['GET', 200, '/sccache/rocm/x/y/z/abc', 'other'],
  ] as const)('%s %i %s → %s', (method, status, uri, kind) => {
    expect(classifySccache(method, status, parseSccachePath(uri, '/sccache/'))).toBe(kind);
  });

  it('attributes the key prefix', () => {
    expect(parseSccachePath(`/sccache/rocm/gfx1201/${key}`, '/sccache/').keyPrefix).toBe('rocm/gfx1201');
    expect(parseSccachePath(`/sccache/${key}`, '/sccache/').keyPrefix).toBe('');
    expect(parseSccachePath('/sccache/a/b/.sccache_check', '/sccache/').keyPrefix).toBe('a/b');
  });
});

/** The split-based reading of a key path: the regular expression in parseSccachePath must agree with it. */
function parseSccachePathBySplit(uri: string, davRoot: string) {
  const pathPart = uri.split('?')[0] ?? '';
  const relative = pathPart.startsWith(davRoot)
    ? pathPart.slice(davRoot.length)
    : pathPart.replace(/^\/+/, '');
  const segments = relative.split('/');
  const last = segments[segments.length - 1] ?? '';
  if (last === '.sccache_check')
    return { keyPrefix: segments.slice(0, -1).join('/'), isKey: false, isCheck: true };
  const [a, b, c] = segments.slice(-4, -1);
  const isKey =
    segments.length >= 4 &&
    a?.length === 1 &&
    b?.length === 1 &&
    c?.length === 1 &&
    last.length > 3 &&
    last.startsWith(a + b + c);
  return isKey
    ? { keyPrefix: segments.slice(0, -4).join('/'), isKey, isCheck: false }
    : { keyPrefix: undefined, isKey: false, isCheck: false };
}

it('parseSccachePath agrees with the split-based reading on 20,000 generated URIs', () => {
  const random = createRandom(24);
  const parts = [
    'sccache',
    'rocm',
    'gfx1201',
    'a',
    'b',
    'c',
    'abcdef',
    'abc',
    '',
    '.sccache_check',
    'ab',
    '?x=1',
    '/',
  ];
  for (let i = 0; i < 20_000; i++) {
    let uri = random() < 0.7 ? '/sccache/' : '/';
    for (let n = Math.floor(random() * 8); n > 0; n--)
      uri += `${parts[Math.floor(random() * parts.length)] ?? ''}${random() < 0.8 ? '/' : ''}`;
    expect(parseSccachePath(uri, '/sccache/'), uri).toEqual(parseSccachePathBySplit(uri, '/sccache/'));
  }
});
