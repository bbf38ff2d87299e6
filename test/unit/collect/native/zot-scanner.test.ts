// The native Zot scanner against the JavaScript paths: the same bytes through feedLogCursor with and without
// `scanner` give the same records and stream stats, line for line, for both Zot layouts and both recordsKept modes,
// on the captured fixtures, generated logs, hand-made odd lines and 10,000 mutated lines, fed whole and in chunks of
// random sizes. The scanner may decline a line (the exact parser reads it) but never answers differently.
// Without the built addon these tests fail, naming the build command; ROCM_PERF_NATIVE=0 checks it is off instead.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ZotEvent, ZotLayout } from '../../../../bench/generate-logs.js';
import { generatePushEvents, renderZotLine, renderZotNoise } from '../../../../bench/generate-logs.js';
import { createRegistryLineParser } from '../../../../src/collect/logs/create-registry-line-parser.js';
import { parseRegistryPath } from '../../../../src/collect/logs/parse-registry-path.js';
import type { LineScanner, ScannerHandle } from '../../../../src/collect/native/line-scanner.js';
import {
  loadLineScanner,
  loadLineScannerFrom,
  loadLineScannerState,
  SCANNER_VERSION,
} from '../../../../src/collect/native/load-line-scanner.js';
import { Row, ZotRow } from '../../../../src/collect/native/scan-rows.js';
import type { RegistryRecord } from '../../../../src/collect/types.js';
import { createRandom } from '../../../../src/shared/random.js';
import type { CompareOptions, RecordsKept } from './compare-scanner-paths.js';
import {
  expectSameOutcomes,
  expectSameStream,
  isOff,
  modes,
  mutateLines,
  requireScanner,
  toBuildHint,
  toBytes,
} from './compare-scanner-paths.js';

const root = path.resolve(import.meta.dirname, '../../../..');
const fixtures = path.join(root, 'test/fixtures/registry');
const layouts: ZotLayout[] = ['slog', 'zerolog'];

const readLines = (file: string) =>
  readFileSync(path.join(fixtures, file), 'latin1')
    .split('\n')
    .filter(Boolean)
    .map((line) => Buffer.from(line, 'latin1'));

/** The Zot parser (both layouts): the streams map client addresses to nodes, the line-by-line reads do not. */
const createStreamParser = (scanner: LineScanner | undefined, recordsKept: RecordsKept) =>
  createRegistryLineParser({
    format: 'zot',
    recordsKept,
    addressToNode: { '10.20.0.11': 'forge', '10.20.0.14': 'kiln' },
    scanner,
  });
const createLineParser = (scanner: LineScanner | undefined, recordsKept: RecordsKept) =>
  createRegistryLineParser({ format: 'zot', recordsKept, scanner });

const routedKinds = new Set(['blob', 'manifest', 'upload']);

/**
 * The one difference the paths may show: under recordsKept 'writes' the native reader keeps a counted-only read lean
 * (read-zot-rows.ts, countedOnlyLean): a line whose method cannot write and whose route the scanner read itself gets
 * path '' and, on a blob route, reference ''. These are the JavaScript records as such lean ones read, where the
 * native record is lean; every other field (and every other record) must still be equal.
 */
function toLeanAsNative(javascript: RegistryRecord[], native: RegistryRecord[]): RegistryRecord[] {
  return javascript.map((record, index) => {
    const isLean = native[index]?.path === '' && record.path !== '';
    const route = parseRegistryPath(record.path);
    if (!isLean || record.method === 'PUT' || record.method === 'POST' || !routedKinds.has(route.kind))
      return record;
    return { ...record, path: '', reference: route.kind === 'blob' ? '' : record.reference };
  });
}

/** Both Zot paths on the same bytes (expectSameStream); returns the native result. */
const expectSameZotStream = (bytes: Buffer, options: CompareOptions) =>
  expectSameStream(bytes, {
    ...options,
    source: 'zot.jsonl',
    createParser: createStreamParser,
    toLeanAsNative,
  });

/** Both Zot paths line by line (expectSameOutcomes); returns how many lines the native scanner read itself. */
const expectSameZotOutcomes = (lines: Buffer[]) =>
  expectSameOutcomes(lines, { createParser: createLineParser, toLeanAsNative, isReadNatively });

/** Scans bytes[0, length) into rows (one scanner object for the whole file: each holds native memory). */
function scanRows(bytes: Buffer, rowCount: number): Float64Array[] {
  const scanner = requireScanner();
  handle ??= scanner.createZotScanner();
  const rows = new Float64Array(rowCount * ZotRow.stride);
  const count = scanner.scan(handle, bytes, 0, bytes.length, rows);
  return Array.from({ length: count }, (_, index) =>
    rows.slice(index * ZotRow.stride, (index + 1) * ZotRow.stride),
  );
}
let handle: ScannerHandle | undefined;

/** Whether the scanner reads the line itself (row accepted) rather than declining it to the exact parser. */
function isReadNatively(line: Buffer): boolean {
  return scanRows(Buffer.concat([line, Buffer.from('\n')]), 1)[0]?.[Row.accepted] === 1;
}

describe('loading the addon', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-native-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // ROCM_PERF_NATIVE_ADDON: another build of the addon (scripts/check-native-sanitizers.ts runs these tests on one).
  const addonFile =
    process.env.ROCM_PERF_NATIVE_ADDON ?? path.join(root, 'build/Release/rocm_perf_scan.node');

  if (isOff) {
    it('ROCM_PERF_NATIVE=0: no scanner, and the description says it is off', () => {
      expect(loadLineScanner()).toBeUndefined();
      expect(loadLineScannerState().description).toBe('off (ROCM_PERF_NATIVE=0)');
    });
  } else {
    it('loads the built addon and says where from', () => {
      const { scanner, description } = loadLineScannerState();
      expect(scanner, toBuildHint(description)).toBeDefined();
      expect(description).toBe(`native (${addonFile})`);
      expect(loadLineScanner()).toBe(scanner);
    });
  }

  it.each([
    ['another version', { version: SCANNER_VERSION + 1, zotStride: ZotRow.stride }],
    ['another row layout', { version: SCANNER_VERSION, zotStride: ZotRow.stride + 1 }],
  ])('refuses an addon of %s, naming the build command', (_, fields) => {
    const file = path.join(dir, `stale-${fields.version}-${fields.zotStride}.cjs`);
    writeFileSync(
      file,
      `module.exports = { ...${JSON.stringify(fields)}, createZotScanner() {}, createTemplateScanner() {}, scan() {} };\n`,
    );
    expect(loadLineScannerFrom(file)).toEqual({
      scanner: undefined,
      description: `${file} is of another version (expected version ${SCANNER_VERSION}); run \`npm run build:native\``,
    });
  });

  it('says a missing addon is not built, and a broken one failed to load', () => {
    const missing = path.join(dir, 'missing.node');
    expect(loadLineScannerFrom(missing)).toEqual({
      scanner: undefined,
      description: `not built (${missing} is missing; run \`npm run build:native\`)`,
    });
    const broken = path.join(dir, 'broken.node');
    writeFileSync(broken, 'not a shared object');
    const { scanner, description } = loadLineScannerFrom(broken);
    expect(scanner).toBeUndefined();
    expect(description).toMatch(/^\S+broken\.node failed to load: .+; run `npm run build:native`$/);
  });
});

if (!isOff) defineEquivalenceTests();

function defineEquivalenceTests(): void {
  describe('native and JavaScript Zot paths give the same outcomes', { timeout: 30_000 }, () => {
    it.each(layouts)('%s fixture: line by line, whole, and in chunks of 1-64 bytes', (layout) => {
      const lines = readLines(`zot-${layout}-push.jsonl`);
      expect(expectSameZotOutcomes(lines)).toBeGreaterThanOrEqual(10);
      const bytes = toBytes(lines);
      for (const recordsKept of modes) {
        const whole = expectSameZotStream(bytes, { recordsKept });
        expect(whole.stats).toMatchObject({ lines: 18, rejected: 0 });
        expectSameZotStream(bytes, { recordsKept, seed: 3, maxChunkBytes: 64 });
        // A CRLF log with a truncated last line (no newline: flushed as the last line).
        const crlf = Buffer.from(
          `${bytes.toString('latin1').replaceAll('\n', '\r\n')}{"level":"info"`,
          'latin1',
        );
        expect(
          expectSameZotStream(crlf, { recordsKept, seed: 4, maxChunkBytes: 200 }).stats.skippedByReason,
        ).toMatchObject({ 'unterminated last line': 1 });
      }
    });

    it.each(layouts)('%s: odd lines (one variant per row of the table)', (layout) => {
      const lines = oddLines(layout);
      // The plain variants are read natively (else the comparison would only exercise the exact parser).
      expect(expectSameZotOutcomes(lines)).toBeGreaterThan(lines.length / 3);
      for (const recordsKept of modes)
        expectSameZotStream(toBytes(lines), { recordsKept, seed: 5, maxChunkBytes: 997 });
    });

    it.each(layouts)('%s: a generated 1.5 MB log, whole, in random chunks, and windowed', (layout) => {
      const bytes = generateLog(layout, 1_500_000);
      const startMs = Date.UTC(2026, 2, 14, 8);
      for (const recordsKept of modes) {
        const whole = expectSameZotStream(bytes, { recordsKept });
        expect(whole.stats.records).toBeGreaterThan(2000);
        expectSameZotStream(bytes, { recordsKept, seed: 6, maxChunkBytes: 300_000 });
        const window = { fromMs: startMs + 20_000, toMs: startMs + 40_000, slackMs: 5_000 };
        const windowed = expectSameZotStream(bytes, { recordsKept, seed: 7, maxChunkBytes: 50_000, window });
        expect(windowed.stats.skippedByReason['before window']).toBeGreaterThan(100);
        expect(windowed.stats.bytes).toBeLessThan(bytes.length / 2);
      }
    });

    it('10,000 mutated lines: nothing throws, every line accounted for, identical outcomes', () => {
      const lines = mutatedLines(10_000, 31);
      expect(expectSameZotOutcomes(lines)).toBeGreaterThan(1000);
      for (const recordsKept of modes) {
        const { stats } = expectSameZotStream(toBytes(lines), { recordsKept, seed: 8, maxChunkBytes: 4096 });
        expect(stats.lines).toBe(lines.length);
        expect(stats.records).toBeGreaterThan(2000);
        expect(stats.rejected).toBeGreaterThan(1000);
      }
    });

    it('more distinct clients and repositories than the intern table holds', () => {
      // Two interned strings a line: 34,000 lines need 68,000 entries, past the table's 65,536.
      const lines = Array.from({ length: 34_000 }, (_, index) =>
        Buffer.from(
          renderZotLine(
            {
              ...baseEvent,
              clientIP: `10.${index >> 16}.${(index >> 8) & 255}.${index & 255}:4000`,
              path: `/v2/r${index}/manifests/t${index}`,
            },
            'zerolog',
          ),
        ),
      );
      const bytes = toBytes(lines);
      for (const recordsKept of modes) {
        const native = expectSameZotStream(bytes, { recordsKept });
        expect(native.records.at(-1)).toMatchObject({ clientAddress: '10.0.132.207', repository: 'r33999' });
      }
      // A fresh scanner's table fills up: the last line's strings are copied from their spans (id -1).
      const scanner = requireScanner();
      const rows = new Float64Array(lines.length * ZotRow.stride);
      expect(scanner.scan(scanner.createZotScanner(), bytes, 0, bytes.length, rows)).toBe(lines.length);
      const last = rows.subarray(rows.length - ZotRow.stride);
      expect([last[Row.accepted], last[ZotRow.clientId], last[ZotRow.nameId]]).toEqual([1, -1, -1]);
    });
  });

  describe('the scanner on its own', () => {
    const line =
      readLines('zot-slog-push.jsonl').find((one) => one.includes('"method":"PATCH"')) ?? Buffer.alloc(0);
    const chunk = toBytes([
      line,
      Buffer.from('x'),
      Buffer.from(''),
      Buffer.concat([line, Buffer.from('\r')]),
      line,
    ]);
    const scanAll = (from: number, to: number, rowCount: number) => {
      const scanner = requireScanner();
      const rows = new Float64Array(rowCount * ZotRow.stride);
      const count = scanner.scan(scanner.createZotScanner(), chunk, from, to, rows);
      return Array.from({ length: count }, (_, index) =>
        Array.from(rows.subarray(index * ZotRow.stride).slice(0, 4)),
      );
    };

    it('writes one row per complete line: start, end without the CR, next, accepted', () => {
      const next = line.length + 1;
      expect(scanAll(0, chunk.length, 10)).toEqual([
        [0, line.length, next, 1],
        [next, next + 1, next + 2, 0],
        [next + 2, next + 2, next + 3, 0],
        [next + 3, next + 3 + line.length, next + 5 + line.length, 1],
        [next + 5 + line.length, chunk.length - 1, chunk.length, 1],
      ]);
    });

    it('stops at the row budget, at `to`, and before a line without its newline', () => {
      expect(scanAll(0, chunk.length, 0)).toEqual([]);
      expect(scanAll(0, chunk.length, 2)).toEqual(scanAll(0, chunk.length, 10).slice(0, 2));
      expect(scanAll(5, 5, 10)).toEqual([]);
      expect(scanAll(0, line.length, 10)).toEqual([]);
      expect(scanAll(chunk.length - 3, chunk.length, 10)).toEqual([
        [chunk.length - 3, chunk.length - 1, chunk.length, 0],
      ]);
      const scanner = requireScanner();
      expect(
        scanner.scan(scanner.createZotScanner(), Buffer.alloc(0), 0, 0, new Float64Array(ZotRow.stride)),
      ).toBe(0);
    });

    it('refuses offsets outside the buffer and rows that are not a Float64Array', () => {
      const scanner = requireScanner();
      const handle = scanner.createZotScanner();
      const rows = new Float64Array(ZotRow.stride);
      expect(() => scanner.scan(handle, chunk, 0, chunk.length + 1, rows)).toThrow(TypeError);
      expect(() => scanner.scan(handle, chunk, 3, 2, rows)).toThrow(/0 <= from <= to <= bytes.length/);
      expect(() => scanner.scan(handle, chunk, 0, 1, new Float32Array(44) as never)).toThrow(/Float64Array/);
    });

    it('refuses a handle that is not one of its scanners', () => {
      const scanner = requireScanner();
      const rows = new Float64Array(ZotRow.stride);
      for (const handle of [{}, Buffer.alloc(8), null, 7])
        expect(() => scanner.scan(handle as never, chunk, 0, chunk.length, rows)).toThrow(/not a scanner/);
    });
  });
}

const baseEvent: ZotEvent = {
  tsMs: Date.UTC(2026, 2, 14, 9, 21, 7),
  clientIP: '10.20.0.14:51822',
  method: 'GET',
  path: '/v2/rocm/cache/blobs/sha256:9f2c',
  statusCode: 200,
  latency: '81.964986ms',
  bodySize: 157,
  headers: { 'User-Agent': ['buildkit/v0.21'] },
  goroutine: 4200,
};

function generateLog(layout: ZotLayout, sizeBytes: number): Buffer {
  const random = createRandom(layout === 'slog' ? 41 : 42).next;
  const startMs = Date.UTC(2026, 2, 14, 8);
  const lines: string[] = [];
  for (let index = 0, size = 0; size < sizeBytes; index++) {
    const tsMs = startMs + index * 100;
    const next =
      index % 50 === 49
        ? [renderZotNoise(tsMs, layout, index)]
        : generatePushEvents(random, tsMs, index).map((event) => renderZotLine(event, layout));
    for (const one of next) size += one.length + 1;
    lines.push(...next);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** The line with `from` (its first occurrence) replaced. */
const edit = (line: string, from: string | RegExp, to: string) => line.replace(from, to);

/** One variant of a plain GET, PATCH or PUT line per odd case. */
function oddLines(layout: ZotLayout): Buffer[] {
  const render = (event: Partial<ZotEvent>) => renderZotLine({ ...baseEvent, ...event }, layout);
  const get = render({});
  const patch = render({
    method: 'PATCH',
    path: '/v2/rocm/cache/blobs/uploads/5d4c0f0e',
    statusCode: 202,
    headers: { 'Content-Length': ['20971520'] },
  });
  const put = render({
    method: 'PUT',
    path: '/v2/rocm/cache/blobs/uploads/5d4c0f0e?digest=sha256%3A9f2c',
    statusCode: 201,
    headers: { 'Content-Length': ['0'] },
  });
  const text: string[] = [
    get,
    patch,
    put,
    `${get} `,
    `${get}\t`,
    `${get}}`,
    get.slice(0, -1),
    'zot starting',
    '',
    ' ',
  ];
  text.push(render({ username: 'ci-bot' }), render({ username: 'ci"bot' }), render({ username: '' }));
  if (layout === 'zerolog')
    text.push(
      edit(get, ',"component":"session"', ''),
      edit(get, '"component":"session"', '"component":"other"'),
    );
  for (const latency of [
    '8.246µs',
    '8.246μs',
    '5us',
    '3ns',
    '1h2m3.5s',
    '-1.5s',
    '+0s',
    '-0s',
    '0',
    '',
    'forever',
    '1e3s',
    '.5ms',
    '5.ms',
    'µs',
    '1m1m',
    '-',
    '+',
    '0.0000001ns',
    `${'9'.repeat(40)}h`,
    `${'9'.repeat(70)}h`,
    `${'9'.repeat(400)}h`,
    '1.2.3s',
    'NaN',
    'Infinityh',
  ])
    text.push(render({ latency }));
  for (const status of [
    '0',
    '01',
    '999999999999999',
    '9999999999999999',
    '12345678901234567890',
    '-1',
    '2.0',
    '2e2',
    '"200"',
    'null',
  ])
    text.push(
      edit(get, /"statusCode":\d+/, `"statusCode":${status}`),
      edit(get, /"bodySize":\d+/, `"bodySize":${status}`),
    );
  for (const lengths of [
    '[]',
    '["007"]',
    '["123456789012345"]',
    '["1234567890123456"]',
    '["-1"]',
    '[""]',
    '["1","2"]',
    '[7]',
    '["7 "]',
    '["\\u0037"]',
  ])
    text.push(edit(patch, '"Content-Length":["20971520"]', `"Content-Length":${lengths}`));
  text.push(
    edit(patch, '"headers":{', '"headers":{"Content-Length":["1"],'),
    edit(patch, '"headers":{', '"headers":{"Content-Length":["1"],').replace('["20971520"]', '[]'),
    edit(patch, '"Content-Length"', '"content-length"'),
    edit(patch, '"headers":{"Content-Length":["20971520"]}', '"headers":{}'),
    edit(patch, '"headers":{', '"headers":{"A":[],"B":["x","y"],'),
    edit(patch, '"headers":{', '"headers":{"Content-Length":["5"],"Content-Length":["6"],'),
  );
  for (const clientIP of [
    '[fd00::22]:5000',
    'fd00::22',
    '[fd00::22',
    '10.20.0.14',
    '',
    ':',
    ':5000',
    'a:b:c',
    'host.example:80',
    '10.20.0.11:1',
  ])
    text.push(render({ clientIP }));
  for (const method of ['HEAD', 'POST', 'DELETE', 'get', '', 'PATCHX']) text.push(render({ method }));
  for (const requestPath of [
    '/v2/',
    '/v2',
    '',
    '/',
    '/v2/_catalog',
    '/v2/r/tags/list',
    '/v2/r/referrers/sha256:1',
    '/v2/r/blobs/sha256%3Aab',
    '/v2/r/blobs/a%zz',
    '/v2/r/manifests/a+b',
    '/v2/r/manifests/latest?x=1',
    '/v2/r/manifests/',
    '/v2/r/manifests/a/b',
    '/v2/r/blobs/',
    '/v2/r/blobs/a/b',
    '/v2/r/blobs/uploads',
    '/v2/r/blobs/uploads/',
    '/v2/r/blobs/uploadsX',
    '/v2/r/blobs/uploads/u/v',
    '/v2/r/blobs/uploads/?digest=sha256%3Aab',
    '/v2/r/blobs/uploads/?digest=a&mount=b',
    '/v2/blobs/x',
    '/v2//blobs/x',
    '/v2/a/blobs/x/manifests/y',
    '/v2/a/manifests/x/blobs/y',
    '/v2/x/blobs/blobs/y',
    '/v2/r/manifests/manifests/x',
    '/v2/rocm/cache/manifests/api',
    '/v2/rocm/cache/manifests/sha256:ab',
    '/v2/é/blobs/x',
    '/v2/\u0000/blobs/x',
    '/v2/\u007f/blobs/x',
  ])
    for (const method of ['GET', 'HEAD', 'PATCH', 'PUT', 'POST'])
      text.push(render({ method, path: requestPath }));
  for (const time of [
    '2026-03-14T09:21:07Z',
    '2026-03-14T09:21:07.123456789Z',
    '2026-03-14T09:21:07.1234567891Z',
    '2026-03-14T09:21:07.Z',
    '2026-03-14T09:21:07.999999999+01:00',
    '2026-03-14T09:21:07-0130',
    '2026-03-14t09:21:07z',
    '2026-03-14 09:21:07Z',
    '2026-02-31T09:21:07Z',
    '0099-01-01T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-03-14T24:00:00Z',
    '2026-03-14T23:59:60Z',
    '2026-03-14T09:21:07,5Z',
    '2026-03-14T09:21:07+01',
    '2026-03-14T09:21:07',
    '2026-03-14T09:21:07+24:00',
    '',
  ])
    text.push(edit(get, /"time":"[^"]*"/, `"time":"${time}"`));
  text.push(
    edit(get, '/v2/', '/v2/\\u0041'),
    edit(get, '/v2/', '\\/v2\\/'),
    edit(get, 'buildkit', 'build\\"kit'),
    edit(get, 'buildkit', 'bü'),
    edit(get, '"goroutine":4200', '"goroutine":04200'),
    edit(get, '"goroutine":4200', '"goroutine":4200,"extra":1'),
    edit(get, '"method":', '"method" :'),
    edit(get, '"HTTP API"', '"HTTP API Audit"'),
    edit(get, '"HTTP API"', '"http api"'),
    edit(get, '"level":"info"', '"level":"debug"'),
  );
  const lines = text.map((one) => Buffer.from(one));
  // Raw bytes: invalid UTF-8 in the latency, the path and a header; a latin1 µ; CR inside and at the end.
  const raw = (from: string, bytes: number[], base = get) => {
    const at = base.indexOf(from);
    return Buffer.concat([
      Buffer.from(base.slice(0, at)),
      Buffer.from(bytes),
      Buffer.from(base.slice(at + from.length)),
    ]);
  };
  lines.push(
    raw('81.964986ms', [0x31, 0xb5, 0x73]),
    raw('81.964986ms', [0x31, 0xc2, 0xb5, 0x73]),
    raw('81.964986ms', [0x31, 0xc2, 0x73]),
    raw('81.964986ms', [0x31, 0xce, 0xbc, 0x73]),
    raw('81.964986ms', [0x31, 0xef, 0xbf, 0xbd, 0x73]),
    raw('/v2/', [0x2f, 0x76, 0x32, 0x2f, 0xff]),
    raw('buildkit', [0xc3, 0x28]),
    raw('buildkit', [0x0d]),
    Buffer.concat([Buffer.from(get), Buffer.from('\r')]),
    Buffer.concat([Buffer.from(get), Buffer.from('\r\r')]),
  );
  return lines;
}

const fuzzTokens = [
  '"Content-Length":["7"]',
  '"Content-Length":[]',
  '\\u0041',
  '%3A',
  '?',
  '+',
  '/blobs/',
  '/manifests/',
  'uploads/',
  '9'.repeat(20),
  '[::1]:5',
  'µs',
  'ms',
  '.5',
  ',"username":"x"',
];

/** Fixture and generated lines, each with 1-3 edits: the repo's text mutator, Zot tokens, or raw byte flips. */
function mutatedLines(count: number, seed: number): Buffer[] {
  const random = createRandom(seed);
  const seeds = [...readLines('zot-slog-push.jsonl'), ...readLines('zot-zerolog-push.jsonl')].map((line) =>
    line.toString('latin1'),
  );
  for (let index = 0; index < 40; index++)
    for (const event of generatePushEvents(random.next, baseEvent.tsMs + index, index))
      seeds.push(renderZotLine(event, index % 2 === 0 ? 'slog' : 'zerolog'));
  return mutateLines({ seeds, tokens: fuzzTokens, count, random });
}
