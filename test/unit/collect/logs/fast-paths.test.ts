// The byte fast paths against the exact parsers: on mutated lines (string mutations and raw byte flips, which make
// invalid UTF-8 too) a fast path either declines (undefined → the exact parser decides) or gives exactly the
// outcome of the JSON.parse reference on the line's lenient UTF-8 decoding.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../../bench/generate-logs.js';
import type { ByteLine } from '../../../../src/collect/logs/byte-line.js';
import { parseSccachePath } from '../../../../src/collect/logs/classify-sccache.js';
import { createSccacheParser } from '../../../../src/collect/logs/create-shipped-sccache-parser.js';
import { parseZotEntryBytes } from '../../../../src/collect/logs/parse-zot-line-bytes.js';
import { parseZotLine, parseZotLineWithJsonParse } from '../../../../src/collect/logs/parse-zot-line.js';

const fixtures = path.resolve(import.meta.dirname, '../../../fixtures');
const seedLines = (file: string) =>
  readFileSync(path.join(fixtures, file), 'utf8').split('\n').filter(Boolean);
const tokens = [
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  ' ',
  '\t',
  '0',
  '9',
  '-',
  '.',
  'µ',
  'é',
  '\u0000',
  '\u007f',
  '"Content-Length":["7"]',
  '\\u0041',
  '%3A',
];

/** A line with 1–3 random edits: a byte set to any value, a token inserted, bytes deleted, or the line cut. */
function mutateBytes(seed: Buffer, random: () => number): Buffer {
  let bytes = seed;
  for (let round = 1 + Math.floor(random() * 3); round > 0; round--) {
    const at = Math.floor(random() * (bytes.length + 1));
    const pick = Math.floor(random() * 4);
    const token = Buffer.from(tokens[Math.floor(random() * tokens.length)] ?? '');
    if (pick === 0)
      bytes = Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from([Math.floor(random() * 256)]),
        bytes.subarray(at + 1),
      ]);
    else if (pick === 1) bytes = Buffer.concat([bytes.subarray(0, at), token, bytes.subarray(at)]);
    else if (pick === 2)
      bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1 + Math.floor(random() * 8))]);
    else bytes = bytes.subarray(0, at);
  }
  return Buffer.from(bytes.toString('latin1').replaceAll('\n', ' '), 'latin1');
}

/** Each mutated line inside a larger buffer (so offsets are exercised), as a ByteLine. */
function toByteLine(bytes: Buffer): ByteLine {
  const chunk = Buffer.concat([Buffer.from('x\n'), bytes, Buffer.from('\ny')]);
  return { bytes: chunk, start: 2, end: 2 + bytes.length, text: chunk.toString('latin1') };
}

/** The fast path's answer in the reference's terms: declined, or the outcome of a record. */
function parseFast(bytes: Buffer) {
  const entry = parseZotEntryBytes(toByteLine(bytes));
  return entry === undefined ? undefined : { ok: true, record: entry };
}

describe('Zot fast path on bytes agrees with the JSON.parse reference', { timeout: 60_000 }, () => {
  it.each(['slog', 'zerolog'])('%s: 20,000 mutated lines', (layout) => {
    const seeds = seedLines(`registry/zot-${layout}-push.jsonl`).map((line) => Buffer.from(line));
    const random = createRandom(layout === 'slog' ? 21 : 22);
    let taken = 0;
    const disagreeing: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const bytes = mutateBytes(seeds[Math.floor(random() * seeds.length)] ?? Buffer.alloc(0), random);
      const fast = parseFast(bytes);
      if (fast === undefined) continue;
      taken++;
      const reference = parseZotLineWithJsonParse(bytes.toString('utf8'));
      if (JSON.stringify(fast) !== JSON.stringify(reference)) disagreeing.push(bytes.toString('utf8'));
    }
    expect(disagreeing).toEqual([]);
    expect(taken).toBeGreaterThan(1000);
  });

  it('reads µs latencies, duplicate Content-Length keys (the last wins) and bracketed IPv6 clients', () => {
    const seed =
      seedLines('registry/zot-slog-push.jsonl').find((line) => line.includes('"method":"PATCH"')) ?? '';
    const line = seed
      .replace(/"latency":"[^"]*"/, '"latency":"8.246µs"')
      .replace(/"clientIP":"[^"]*"/, '"clientIP":"[fd00::22]:5000"')
      .replace('"headers":{', '"headers":{"Content-Length":["1"],');
    const fast = parseFast(Buffer.from(line));
    expect(fast).toEqual(parseZotLineWithJsonParse(line));
    expect(fast).toMatchObject({ ok: true, record: { durationMs: 0.008246, clientAddress: 'fd00::22' } });
  });

  it('takes the last of duplicate Content-Length keys, as JSON.parse does, on the fast and the exact path', () => {
    const seed =
      seedLines('registry/zot-slog-push.jsonl').find((line) => line.includes('"method":"PATCH"')) ?? '';
    const lines = [
      seed.replace('"headers":{', '"headers":{"Content-Length":["1"],'),
      seed
        .replace(/"Content-Length":\["\d+"\]/, '"Content-Length":[]')
        .replace('"headers":{', '"headers":{"Content-Length":["1"],'),
    ];
    for (const line of lines) {
      const reference = parseZotLineWithJsonParse(line);
      expect(parseZotLine(line)).toEqual(reference);
      expect(parseFast(Buffer.from(line))).toEqual(reference);
    }
    expect(parseZotLine(lines[1] ?? '')).toMatchObject({ ok: true, record: { requestBytes: null } });
  });

  it.each(['slog', 'zerolog'])(
    "%s: finds the client after an optional username and component (the layouts' fixed parts)",
    (layout) => {
      const seed =
        seedLines(`registry/zot-${layout}-push.jsonl`).find((line) => line.includes('"method":"PATCH"')) ??
        '';
      const withUser = seed.replace('"module":"http"', '"module":"http","username":"ci-bot"');
      const variants = [seed, withUser];
      if (layout === 'zerolog')
        variants.push(
          seed.replace(',"component":"session"', ''),
          withUser.replace(',"component":"session"', ''),
        );
      for (const line of variants) {
        const fast = parseFast(Buffer.from(line));
        expect(fast, line).toBeDefined();
        expect(fast).toEqual(parseZotLineWithJsonParse(line));
        expect(fast).toMatchObject({ ok: true, record: { clientAddress: '10.20.0.14', method: 'PATCH' } });
      }
    },
  );

  it('declines escapes, non-ASCII outside the latency, and other key orders', () => {
    const seed =
      seedLines('registry/zot-slog-push.jsonl').find((line) => line.includes('"method":"PATCH"')) ?? '';
    for (const line of [
      seed.replace('/v2/', '/v2/\\u0041'),
      seed.replace('/v2/', '/v2/é'),
      seed.replace('{"time"', '{ "time"'),
      seed.replace(/"goroutine":\d+/, '"goroutine":1,"extra":1'),
    ]) {
      expect(parseZotEntryBytes(toByteLine(Buffer.from(line)))).toBeUndefined();
    }
  });
});

describe(
  'sccache (nginx) fast path on bytes agrees with the template walk on the decoded line',
  { timeout: 60_000 },
  () => {
    it('20,000 mutated lines', () => {
      const seeds = seedLines('nginx/sccache-session.log').map((line) => Buffer.from(line));
      const parser = createSccacheParser({ addressToNode: { '127.0.0.1': 'strix' } });
      const random = createRandom(23);
      const disagreeing: string[] = [];
      for (let i = 0; i < 20_000; i++) {
        const bytes = mutateBytes(seeds[Math.floor(random() * seeds.length)] ?? Buffer.alloc(0), random);
        const fast = parser.parseBytes?.(toByteLine(bytes));
        if (JSON.stringify(fast) !== JSON.stringify(parser.parseLine(bytes.toString('utf8'))))
          disagreeing.push(bytes.toString('utf8'));
      }
      expect(disagreeing).toEqual([]);
    });
  },
);

/** The split-based reading parseSccachePath replaced (kept here as the reference). */
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
