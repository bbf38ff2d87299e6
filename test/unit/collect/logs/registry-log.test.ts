// Zot (both layouts, generated in the key orders Zot writes) and docker-registry (captured from Debian's daemon).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRegistryLineParser } from '../../../../src/collect/logs/create-registry-line-parser.js';
import { createLogCursor, feedLogCursor, flushLogCursor } from '../../../../src/collect/logs/log-cursor.js';
import type { RegistryLogFormat } from '../../../../src/collect/logs/create-registry-line-parser.js';
import { parseRegistryPath } from '../../../../src/collect/logs/parse-registry-path.js';
import { toByteLine } from '../../../../src/collect/logs/byte-line.js';
import { parseZotLine as parseZotByteLine } from '../../../../src/collect/logs/parse-zot-line.js';
import { parseZotLineReference } from './reference-parsers.js';
import { summarizeRegistry } from '../../../../src/collect/logs/summarize-registry.js';
import { toClientIp } from '../../../../src/collect/logs/registry-entry.js';
import type { RegistryRecord } from '../../../../src/collect/types.js';

const parseZotLine = (line: string) => parseZotByteLine(toByteLine(line));
const fixtures = path.resolve(import.meta.dirname, '../../../fixtures/registry');
const readJson = <T>(name: string) => JSON.parse(readFileSync(path.join(fixtures, name), 'utf8')) as T;

function parseFixture(name: string, format: RegistryLogFormat, addressToNode: Record<string, string> = {}) {
  const parser = createRegistryLineParser({ format, cachePatterns: ['*/cache:*'], addressToNode });
  const cursor = createLogCursor(name);
  const feed = { parser, window: { slackMs: 0 } };
  const records: RegistryRecord[] = [
    ...feedLogCursor(cursor, readFileSync(path.join(fixtures, name)), feed),
    ...flushLogCursor(cursor, feed),
  ];
  return { records, stats: cursor.stats };
}

describe('Zot session log, both layouts', () => {
  const expected = readJson<{ lines: number; records: number; cache: object; image: object }>(
    'zot-push.expected.json',
  );

  it.each(['slog', 'zerolog'])('%s: blobs once, manifests, cache vs image, unknown sizes apart', (layout) => {
    const { records, stats } = parseFixture(`zot-${layout}-push.jsonl`, 'zot', {
      '10.20.0.14': 'forge',
      'fd00::22': 'kiln',
    });
    expect(stats).toMatchObject({ lines: expected.lines, records: expected.records, rejected: 0 });
    expect(stats.skippedByReason).toEqual({ 'not JSON': 1, 'not an HTTP line': 1, 'audit line': 1 });
    const summary = summarizeRegistry(records);
    expect(summary.cache).toMatchObject(expected.cache);
    expect(summary.image).toMatchObject(expected.image);
    expect(summary.byNode.forge?.cache.blobsWritten).toBe(2);
    expect(summary.byNode.kiln?.image).toMatchObject({ blobsWritten: 1, bytesUnknown: 1, bytesWritten: 0 });
  });

  it('reads real Zot v2 session lines (test/fixtures/registry/README.md), as the JSON.parse oracle does', () => {
    const lines = readFileSync(path.join(fixtures, 'zot-real-session-v2.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    expect(lines.map(parseZotLine)).toEqual(lines.map(parseZotLineReference));
    const { records, stats } = parseFixture('zot-real-session-v2.jsonl', 'zot');
    expect(stats).toMatchObject({ lines: 5, records: 5, skipped: 0, rejected: 0 });
    expect(records.map((record) => [record.method, record.status, record.kind, record.bytes])).toEqual([
      ['GET', 401, 'other', null],
      ['PUT', 201, 'manifest-write', 563],
      ['GET', 401, 'other', null],
      ['HEAD', 200, 'other', null],
      ['GET', 200, 'blob-read', 698],
    ]);
    expect(records[1]).toMatchObject({
      clientAddress: '127.0.0.1',
      repository: 'liquidmetal-dev/flintlock-kernel',
      reference: '5.10.77',
      tsMs: Date.UTC(2026, 8, 27, 14, 54, 55, 736) + 0.062174,
    });
  });

  it('gives identical records in both layouts', () => {
    const strip = (records: RegistryRecord[]) => records.map((record) => ({ ...record }));
    expect(strip(parseFixture('zot-zerolog-push.jsonl', 'zot').records)).toEqual(
      strip(parseFixture('zot-slog-push.jsonl', 'zot').records),
    );
  });

  it('reads the finalising PUT as one blob write with the session bytes and its latency', () => {
    const put = parseFixture('zot-slog-push.jsonl', 'zot').records.find(
      (record) => record.kind === 'blob-write',
    );
    expect(put).toEqual({
      tsMs: Date.UTC(2026, 2, 14, 9, 21, 9, 40) + 0.41456,
      clientAddress: '10.20.0.14',
      method: 'PUT',
      path: `/v2/rocm/cache/blobs/uploads/5d4c0f0e-8f62-4b7f-9a52-0c3f6d7e9a11?digest=sha256%3A${'9f2c1e0b'.repeat(8)}`,
      status: 201,
      kind: 'blob-write',
      repository: 'rocm/cache',
      reference: `sha256:${'9f2c1e0b'.repeat(8)}`,
      bytes: 31457280,
      durationMs: 2000,
      isCache: true,
    });
  });

  it('reads keys by name: a reordered, spaced line equals the layout line', () => {
    const line = readFileSync(path.join(fixtures, 'zot-slog-push.jsonl'), 'utf8').split('\n')[4] ?? '';
    const object = JSON.parse(line) as Record<string, unknown>;
    const reordered = JSON.stringify(
      Object.fromEntries(Object.entries(object).reverse()),
      null,
      1,
    ).replaceAll('\n', '');
    expect(parseZotLine(reordered)).toEqual(parseZotLine(line));
    expect(parseZotLine(line)).toEqual(parseZotLineReference(line));
  });

  it.each([
    [
      '{"time":"2026-03-14T09:21:07Z","message":"HTTP API","clientIP":"1.2.3.4:5","method":"GET","path":"/v2/","statusCode":"200"}',
      'statusCode: expected an integer, got "200"',
    ],
    [
      '{"time":"yesterday","message":"HTTP API","clientIP":"1.2.3.4:5","method":"GET","path":"/v2/","statusCode":200}',
      'time: expected an RFC 3339 timestamp, got "yesterday"',
    ],
    [
      '{"time":"2026-03-14T09:21:07Z","message":"HTTP API","clientIP":"1.2.3.4:5","method":"GET","path":"/v2/"',
      'truncated JSON line',
    ],
    ['{"time":"2026-03-14T09:21:07Z","message":"HTTP API",,}', 'invalid JSON'],
  ])('rejects %s', (line, reason) => {
    expect(parseZotLine(line)).toEqual({ ok: false, rejected: true, reason });
    expect(parseZotLineReference(line)).toEqual({ ok: false, rejected: true, reason });
  });
});

describe('docker-registry (CNCF Distribution) JSON log', () => {
  const expected = readJson<{
    cache: { blobsWritten: number; manifestsWritten: number };
    image: { blobsWritten: number; manifestsWritten: number };
  }>('distribution-push.expected.json');

  it('counts blob and manifest writes, skips access lines and non-request lines, and never invents a size', () => {
    const { records, stats } = parseFixture('distribution-push.log', 'distribution');
    expect(stats.rejected).toBe(0);
    expect(stats.records).toBe(24);
    expect(stats.lines).toBe(stats.records + stats.skipped);
    expect(stats.skippedByReason['not JSON']).toBe(24);
    const summary = summarizeRegistry(records);
    expect(summary.cache).toMatchObject({
      blobsWritten: expected.cache.blobsWritten,
      manifestsWritten: expected.cache.manifestsWritten,
      bytesWritten: 0,
      bytesUnknown: 3,
    });
    expect(summary.image).toMatchObject({
      blobsWritten: expected.image.blobsWritten,
      manifestsWritten: expected.image.manifestsWritten,
      bytesWritten: 0,
      bytesUnknown: 3,
    });
    expect(
      records
        .filter((record) => record.kind === 'blob-write')
        .every((record) => record.bytes === null && record.durationMs !== null),
    ).toBe(true);
    expect(records.find((record) => record.kind === 'blob-read')?.bytes).toBe(120_000);
  });
});

describe('parseRegistryPath and client addresses', () => {
  it.each([
    ['/v2/a/b/blobs/sha256:1', { kind: 'blob', repository: 'a/b', digest: 'sha256:1' }],
    ['/v2/a/blobs/uploads/', { kind: 'upload-start', repository: 'a', digest: undefined, mount: undefined }],
    [
      '/v2/a/blobs/uploads/?digest=sha256%3A1',
      { kind: 'upload-start', repository: 'a', digest: 'sha256:1', mount: undefined },
    ],
    [
      '/v2/a/blobs/uploads/u-1?_state=x&digest=sha256:2',
      { kind: 'upload', repository: 'a', uuid: 'u-1', digest: 'sha256:2' },
    ],
    ['/v2/x/blobs/y/manifests/latest', { kind: 'manifest', repository: 'x/blobs/y', reference: 'latest' }],
    ['/v2/a/tags/list', { kind: 'tags', repository: 'a' }],
    ['/v2/_catalog', { kind: 'other' }],
    ['/metrics', { kind: 'other' }],
    // Edges: a part at the name's very start, empty or nested rests, queries, escapes.
    ['/v2/blobs/x', { kind: 'other' }],
    ['/v2//blobs/x', { kind: 'other' }],
    ['/v2/a/blobs/', { kind: 'other' }],
    ['/v2/a/blobs/x/y', { kind: 'other' }],
    ['/v2/a/manifests/', { kind: 'other' }],
    ['/v2/manifests/x', { kind: 'other' }],
    ['/v2/a/manifests/x?y=1', { kind: 'manifest', repository: 'a', reference: 'x' }],
    ['/v2/a/manifests/x%2Fy', { kind: 'other' }],
    ['/v2/a/blobs/sha256%3A1?x', { kind: 'blob', repository: 'a', digest: 'sha256:1' }],
    ['/v2/a/blobs/%zz', { kind: 'blob', repository: 'a', digest: '%zz' }],
    ['/v2/a/blobs/x?', { kind: 'blob', repository: 'a', digest: 'x' }],
    ['/v2/a/manifests/sha256:1/blobs/b', { kind: 'blob', repository: 'a/manifests/sha256:1', digest: 'b' }],
    ['/v2/a/blobs/c/manifests/d', { kind: 'manifest', repository: 'a/blobs/c', reference: 'd' }],
    ['/v2/a?x=/blobs/y', { kind: 'other' }],
    ['/v2/a/blobs/uploads', { kind: 'upload-start', repository: 'a', digest: undefined, mount: undefined }],
    [
      '/v2/a/blobs/uploads/?mount=sha256:1&from=b',
      { kind: 'upload-start', repository: 'a', digest: undefined, mount: 'sha256:1' },
    ],
    ['/v2/a/blobs/uploads/?digest', { kind: 'upload-start', repository: 'a', digest: '', mount: undefined }],
    ['/v2/a/blobs/uploads/u?digest=a+b', { kind: 'upload', repository: 'a', uuid: 'u', digest: 'a b' }],
    ['/v2/a/blobs/uploads/u/v', { kind: 'upload', repository: 'a', uuid: 'u/v', digest: undefined }],
    ['/v2/a/referrers/sha256:1', { kind: 'referrers', repository: 'a' }],
    ['/v2/tags/list', { kind: 'other' }],
    ['/v2/a/b/tags/list?n=1', { kind: 'tags', repository: 'a/b' }],
    ['/v2', { kind: 'other' }],
  ])('%s', (input, route) => {
    expect(parseRegistryPath(input)).toEqual(route);
  });

  it.each([
    ['10.0.0.1:5000', '10.0.0.1'],
    ['[::1]:5000', '::1'],
    ['fd00::1', 'fd00::1'],
    ['10.0.0.1', '10.0.0.1'],
  ])('%s → %s', (address, ip) => {
    expect(toClientIp(address)).toBe(ip);
  });
});
