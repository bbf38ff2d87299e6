// The native nginx template scanner (sccache WebDAV log) against the JavaScript paths: the same bytes through
// feedLogCursor with and without `scanner` give the same records and stream stats, line for line, in both
// recordsKept modes, on the captured fixtures (CRLF and a truncated last line included), a generated log (whole, in
// chunks, windowed), hand-made odd lines (escapes, raw bytes, numbers, times, key paths, DAV roots, methods, other
// log_formats), 10,000 mutated lines and more distinct strings than the intern table holds. The scanner may decline
// a line (the exact parser reads it) but never answers differently; the one deliberate difference is the uri of a
// scratch record under recordsKept 'writes' (toLeanAsNative). Without the built addon these tests fail, naming the
// build command; ROCM_PERF_NATIVE=0 checks it is off instead.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  generateSccacheLog,
  generateSccacheRequest,
  renderNginxLine,
} from '../../../../bench/generate-logs.js';
import {
  createSccacheParser,
  sccacheLogFormatName,
} from '../../../../src/collect/logs/create-shipped-sccache-parser.js';
import { createNginxLineParser } from '../../../../src/collect/logs/parse-nginx-line.js';
import type { LogFormatSpec } from '../../../../src/collect/logs/parse-log-format.js';
import { parseDavLocation, parseLogFormat } from '../../../../src/collect/logs/parse-log-format.js';
import type { SccacheFieldIndices } from '../../../../src/collect/logs/read-sccache-rows.js';
import { toTemplateScannerSpec } from '../../../../src/collect/logs/read-sccache-rows.js';
import { shippedSccacheConf } from '../../../../src/collect/logs/shipped-sccache-conf.generated.js';
import type { LineScanner, ScannerHandle } from '../../../../src/collect/native/line-scanner.js';
import { loadLineScanner, loadLineScannerState } from '../../../../src/collect/native/load-line-scanner.js';
import { Decode, Row, SccachePathFlag, TemplateRow } from '../../../../src/collect/native/scan-rows.js';
import type { SccacheRecord } from '../../../../src/collect/types.js';
import { createRandom } from '../../../../src/shared/random.js';
import type { CompareOptions, RecordsKept } from './compare-scanner-paths.js';
import {
  expectSameOutcomes,
  expectSameStream,
  isOff,
  modes,
  mutateLines,
  readStream,
  requireScanner,
  toBuildHint,
  toBytes,
} from './compare-scanner-paths.js';

const root = path.resolve(import.meta.dirname, '../../../..');
const fixtures = path.join(root, 'test/fixtures/nginx');
const source = 'sccache.json.log';
const addressToNode = { '127.0.0.1': 'strix', '10.20.0.11': 'forge', '10.20.0.14': 'kiln' };

/** Other log_formats, made by editing the shipped conf's text (each edit must apply). */
function editConf(from: string, to: string): string {
  if (!shippedSccacheConf.includes(from)) throw new Error(`the shipped conf has no ${JSON.stringify(from)}`);
  return shippedSccacheConf.replace(from, to);
}
const confs = {
  shipped: shippedSccacheConf,
  /** $time_iso8601 is the only time: the scanner decodes it as RFC 3339. */
  isoOnly: editConf('"msec":$msec,', ''),
  /** No $request_time: durations are 0. */
  noRequestTime: editConf('"request_time":$request_time,', ''),
  /** Numbers quoted, so an empty one is `""` rather than a missing JSON value. */
  quotedNumbers: editConf('"msec":$msec,', '"msec":"$msec",').replace(
    '"status":$status,',
    '"status":"$status",',
  ),
  /** Another WebDAV location (the DAV root is read from the conf). */
  otherLocation: editConf('location /sccache/ {', 'location /cache/v2/ {'),
};
type ConfName = keyof typeof confs;
const specOf = (conf: ConfName) => parseLogFormat(confs[conf], sccacheLogFormatName);
const shippedSpec = specOf('shipped');

/** Which parser reads the bytes: a conf (default the shipped one) and the davRoot option. */
interface ParserChoice {
  conf?: ConfName;
  davRoot?: string;
}

const createParser = (choice: ParserChoice, scanner: LineScanner | undefined, recordsKept: RecordsKept) =>
  createSccacheParser({
    confText: confs[choice.conf ?? 'shipped'],
    davRoot: choice.davRoot,
    addressToNode,
    scanner,
    recordsKept,
  });

/**
 * The one difference the paths may show: under recordsKept 'writes' a line whose method is not PUT becomes a scratch
 * record, and the native reader does not copy its uri (read-sccache-rows.ts, countedOnlyLean): uri ''. These are the
 * JavaScript records as such lean ones read, where the native record is lean; every other field (and every PUT
 * record) must still be equal.
 */
function toLeanAsNative(javascript: SccacheRecord[], native: SccacheRecord[]): SccacheRecord[] {
  return javascript.map((record, index) =>
    record.method !== 'PUT' && record.uri !== '' && native[index]?.uri === ''
      ? { ...record, uri: '' }
      : record,
  );
}

/** Both sccache paths on the same bytes, a choice's parser (expectSameStream); returns the native result. */
const expectSameSccacheStream = (bytes: Buffer, options: CompareOptions & ParserChoice) =>
  expectSameStream(bytes, {
    ...options,
    source,
    createParser: (scanner, recordsKept) => createParser(options, scanner, recordsKept),
    toLeanAsNative,
  });

/** Both sccache paths line by line (expectSameOutcomes); returns how many lines the native scanner read itself. */
const expectSameSccacheOutcomes = (lines: Buffer[], choice: ParserChoice = {}) =>
  expectSameOutcomes(lines, {
    createParser: (scanner, recordsKept) => createParser(choice, scanner, recordsKept),
    toLeanAsNative,
    isReadNatively: (line) => isReadNatively(line, choice),
  });

/** The field indices classify-sccache.ts derives from a log_format (the first variable present of each list). */
function toFieldIndices(spec: LogFormatSpec): SccacheFieldIndices {
  const parser = createNginxLineParser(spec);
  const first = (...variables: string[]) =>
    variables.map((variable) => parser.indexOf(variable)).find((index) => index >= 0) ?? -1;
  return {
    msec: parser.indexOf('msec'),
    iso: first('msec', 'time_iso8601'),
    address: first('remote_addr'),
    method: first('request_method'),
    uri: first('uri', 'request_uri'),
    status: first('status'),
    sent: first('body_bytes_sent'),
    length: first('content_length'),
    time: parser.indexOf('request_time'),
  };
}

/** A template scanner for a conf, as createSccacheChunkReader makes it. */
function createScannerFor(choice: ParserChoice): { handle: ScannerHandle; stride: number } {
  const conf = confs[choice.conf ?? 'shipped'];
  const spec = parseLogFormat(conf, sccacheLogFormatName);
  const davRoot = choice.davRoot ?? parseDavLocation(conf) ?? '/sccache/';
  const handle = requireScanner().createTemplateScanner(
    toTemplateScannerSpec(spec, toFieldIndices(spec), davRoot),
  );
  return { handle, stride: TemplateRow.head + TemplateRow.fieldStride * spec.fields.length };
}

/** Scans bytes into rows, with a fresh scanner for the conf or the one kept for it (`reuse`: each holds native memory). */
function scanRows(bytes: Buffer, rowCount: number, choice: ParserChoice = {}, reuse = false): Float64Array[] {
  const key = `${choice.conf ?? 'shipped'} ${choice.davRoot ?? ''}`;
  const scanner = reuse ? (keptScanners.get(key) ?? createScannerFor(choice)) : createScannerFor(choice);
  if (reuse) keptScanners.set(key, scanner);
  const { handle, stride } = scanner;
  const rows = new Float64Array(rowCount * stride);
  const count = requireScanner().scan(handle, bytes, 0, bytes.length, rows);
  return Array.from({ length: count }, (_, index) => rows.slice(index * stride, (index + 1) * stride));
}
const keptScanners = new Map<string, { handle: ScannerHandle; stride: number }>();

/** Whether the scanner reads the line itself (row accepted) rather than declining it to the exact parser. */
const isReadNatively = (line: Buffer, choice: ParserChoice) =>
  scanRows(Buffer.concat([line, Buffer.from('\n')]), 1, choice, true)[0]?.[Row.accepted] === 1;

/** A fixture's lines as bytes (CRs kept; a last line without its newline included). */
const splitLines = (bytes: Buffer) => {
  const text = bytes.toString('latin1');
  return (text.endsWith('\n') ? text.slice(0, -1) : text)
    .split('\n')
    .map((line) => Buffer.from(line, 'latin1'));
};

describe('loading the addon', () => {
  if (isOff) {
    it('ROCM_PERF_NATIVE=0: no scanner, and the sccache parser reads without a chunk reader', () => {
      expect(loadLineScanner()).toBeUndefined();
      expect(loadLineScannerState().description).toBe('off (ROCM_PERF_NATIVE=0)');
      expect(createSccacheParser({ scanner: loadLineScanner() }).chunkReader).toBeUndefined();
    });
  } else {
    it('is loaded, and gives the sccache parser a chunk reader', () => {
      const { scanner, description } = loadLineScannerState();
      expect(scanner, toBuildHint(description)).toBeDefined();
      expect(createSccacheParser({ scanner: requireScanner() }).chunkReader).toBeDefined();
    });
  }
});

describe('toTemplateScannerSpec', () => {
  const fieldsOf = (spec: LogFormatSpec, davRoot: string) => {
    const scannerSpec = toTemplateScannerSpec(spec, toFieldIndices(spec), davRoot);
    return {
      literals: scannerSpec.literals.map((literal) => literal.toString('utf8')),
      fields: spec.fields.map((field, index) => [
        field.variable,
        scannerSpec.quoted[index],
        scannerSpec.decoders[index],
      ]),
      davRoot: scannerSpec.davRoot.toString('utf8'),
    };
  };

  it('decodes what the record reads of the shipped conf, and nothing else', () => {
    expect(fieldsOf(shippedSpec, '/sccache/')).toEqual({
      literals: [
        '{"ts":"',
        '","msec":',
        ',"remote_addr":"',
        '","method":"',
        '","uri":"',
        '","status":',
        ',"request_length":',
        ',"content_length":"',
        '","body_bytes_sent":',
        ',"bytes_sent":',
        ',"request_time":',
        ',"ua":"',
        '","completion":"',
        '"}',
      ],
      fields: [
        ['time_iso8601', 1, Decode.none],
        ['msec', 0, Decode.secondsMs],
        ['remote_addr', 1, Decode.intern],
        ['request_method', 1, Decode.intern],
        ['uri', 1, Decode.sccachePath],
        ['status', 0, Decode.count],
        ['request_length', 0, Decode.none],
        ['content_length', 1, Decode.countOrNone],
        ['body_bytes_sent', 0, Decode.count],
        ['bytes_sent', 0, Decode.none],
        ['request_time', 0, Decode.secondsMs],
        ['http_user_agent', 1, Decode.none],
        ['request_completion', 1, Decode.none],
      ],
      davRoot: '/sccache/',
    });
  });

  it('decodes $time_iso8601 when the format has no $msec', () => {
    const { fields } = fieldsOf(specOf('isoOnly'), '/sccache/');
    expect(fields.slice(0, 2)).toEqual([
      ['time_iso8601', 1, Decode.rfc3339Ms],
      ['remote_addr', 1, Decode.intern],
    ]);
    expect(fields.filter((field) => field[2] === Decode.secondsMs)).toEqual([
      ['request_time', 0, Decode.secondsMs],
    ]);
  });
});

if (!isOff) defineEquivalenceTests();

function defineEquivalenceTests(): void {
  describe('native and JavaScript sccache paths give the same outcomes', { timeout: 30_000 }, () => {
    it.each([
      ['sccache-session.log', { lines: 56, rejected: 0 }, {}],
      ['crlf-line-endings.log', { lines: 56, rejected: 0 }, {}],
      ['partial-last-line.log', { lines: 56, rejected: 0 }, { 'unterminated last line': 1 }],
    ])('%s: line by line, whole, and in chunks of 1-64 bytes', (file, counts, skips) => {
      const bytes = readFileSync(path.join(fixtures, file));
      expect(expectSameSccacheOutcomes(splitLines(bytes))).toBeGreaterThanOrEqual(40);
      for (const recordsKept of modes) {
        const whole = expectSameSccacheStream(bytes, { recordsKept });
        expect(whole.stats).toMatchObject(counts);
        expect(whole.stats.skippedByReason).toMatchObject(skips);
        expect(whole.records.filter((record) => record.node === 'strix').length).toBe(whole.stats.records);
        expectSameSccacheStream(bytes, { recordsKept, seed: 3, maxChunkBytes: 64 });
      }
    });

    it('the fixture read natively: hits, misses, writes and overhead with their prefixes', () => {
      const { records } = readStream(readFileSync(path.join(fixtures, 'sccache-session.log')), {
        parser: createParser({}, requireScanner(), 'all'),
        source,
      });
      const kinds = new Set(records.map((record) => `${record.kind} ${record.keyPrefix ?? '-'}`));
      for (const kind of ['hit', 'miss', 'write']) expect(kinds).toContain(`${kind} rocm/gfx1201`);
      expect(kinds).toContain('overhead rocm/gfx1201');
      // Under recordsKept 'writes' a line that cannot be a write is only counted: its uri is not copied.
      const lean = readStream(readFileSync(path.join(fixtures, 'sccache-session.log')), {
        parser: createParser({}, requireScanner(), 'writes'),
        source,
      }).records;
      expect(lean.filter((record) => record.method === 'PUT' && record.uri === '')).toEqual([]);
      // (the exact parser's records keep it: here the lines with raw non-UTF-8 bytes, which the scanner declines)
      expect(
        lean.filter((record) => record.method !== 'PUT' && record.uri !== '').map((record) => record.uri),
      ).toEqual(['/sccache/rocm/gfx1201/café\uFFFD/x', '/sccache/rocm/gfx1201-coldrun-1/café\uFFFD/x']);
      const write = records.find((record) => record.kind === 'write');
      expect(write?.bytes).toBeGreaterThan(0);
      expect(write).not.toHaveProperty('bytesUnknown');
    });

    it.each<[string, ParserChoice]>([
      ['shipped conf', {}],
      ['davRoot /cache/v2/ (option)', { davRoot: '/cache/v2/' }],
      ['davRoot / (option)', { davRoot: '/' }],
      ['davRoot "" (option)', { davRoot: '' }],
      ['a conf with location /cache/v2/', { conf: 'otherLocation' }],
    ])('odd lines, %s', (_, choice) => {
      const lines = oddLines(shippedSpec);
      // The plain variants are read natively (else the comparison would only exercise the exact parser).
      expect(expectSameSccacheOutcomes(lines, choice)).toBeGreaterThan(lines.length / 2);
      for (const recordsKept of modes)
        expectSameSccacheStream(toBytes(lines), { ...choice, recordsKept, seed: 5, maxChunkBytes: 997 });
    });

    it.each<[string, ConfName]>([
      ['$time_iso8601 only', 'isoOnly'],
      ['no $request_time', 'noRequestTime'],
      ['quoted $msec and $status', 'quotedNumbers'],
    ])('odd lines of another log_format: %s', (_, conf) => {
      const spec = specOf(conf);
      const lines = [...oddLines(spec), ...timeLines(spec)];
      expect(expectSameSccacheOutcomes(lines, { conf })).toBeGreaterThan(lines.length / 2);
      for (const recordsKept of modes)
        expectSameSccacheStream(toBytes(lines), { conf, recordsKept, seed: 6, maxChunkBytes: 2000 });
    });

    it('a generated ~1 MB log, whole, in random chunks, and windowed', () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-sccache-'));
      const file = path.join(dir, 'sccache.json.log');
      const startMs = Date.UTC(2026, 11, 2, 13);
      const spanMs = 600_000;
      try {
        generateSccacheLog({
          path: file,
          sizeBytes: 1_000_000,
          startMs,
          spanMs,
          spec: shippedSpec,
          prefix: 'rocm/gfx1201',
        });
        const bytes = readFileSync(file);
        expect(bytes.length).toBeGreaterThan(900_000);
        for (const recordsKept of modes) {
          const whole = expectSameSccacheStream(bytes, { recordsKept });
          expect(whole.stats.records).toBeGreaterThan(2000);
          expect(whole.stats.rejected).toBe(0);
          expect(new Set(whole.records.map((record) => record.node))).toEqual(
            new Set([undefined, 'forge', 'kiln']),
          );
          expectSameSccacheStream(bytes, { recordsKept, seed: 7, maxChunkBytes: 300_000 });
          const window = { fromMs: startMs + spanMs * 0.2, toMs: startMs + spanMs * 0.4, slackMs: 5_000 };
          const windowed = expectSameSccacheStream(bytes, {
            recordsKept,
            seed: 8,
            maxChunkBytes: 50_000,
            window,
          });
          expect(windowed.stats.skippedByReason['before window']).toBeGreaterThan(100);
          expect(windowed.stats.records).toBeGreaterThan(100);
          expect(windowed.stats.bytes).toBeLessThan(bytes.length / 2);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('10,000 mutated lines: nothing throws, every line accounted for, identical outcomes', () => {
      const lines = mutatedLines(10_000, 31);
      expect(expectSameSccacheOutcomes(lines)).toBeGreaterThan(1000);
      for (const recordsKept of modes) {
        const { stats } = expectSameSccacheStream(toBytes(lines), {
          recordsKept,
          seed: 9,
          maxChunkBytes: 4096,
        });
        expect(stats.lines).toBe(lines.length);
        expect(stats.records).toBeGreaterThan(1500);
        expect(stats.rejected).toBeGreaterThan(1500);
      }
    });

    it('more distinct client addresses and key prefixes than the intern table holds', () => {
      const count = 34_000;
      const lines = Array.from({ length: count }, (_, index) =>
        Buffer.from(
          renderNginxLine(shippedSpec, {
            ...baseValues,
            remote_addr: `10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`,
            uri: `/sccache/p${index}/e/3/b/e3b0`,
            http_user_agent: '',
          }),
        ),
      );
      const bytes = toBytes(lines);
      for (const recordsKept of modes) {
        const native = expectSameSccacheStream(bytes, { recordsKept });
        expect(native.records.at(-1)).toMatchObject({
          clientAddress: '10.0.132.207',
          keyPrefix: 'p33999',
          kind: 'hit',
        });
      }
      // A fresh scanner's table fills up: the last line's strings are copied from their spans (id -1).
      const rows = scanRows(bytes, count);
      expect(rows.length).toBe(count);
      const fieldSlot = (index: number) => TemplateRow.head + TemplateRow.fieldStride * index;
      const at = toFieldIndices(shippedSpec);
      const last = rows.at(-1) ?? new Float64Array();
      expect([
        last[Row.accepted],
        last[fieldSlot(at.address) + TemplateRow.value],
        last[fieldSlot(at.uri) + TemplateRow.value],
        last[fieldSlot(at.uri) + TemplateRow.auxA],
      ]).toEqual([1, -1, -1, SccachePathFlag.isKey | SccachePathFlag.hasPrefix]);
      // The method still has its id (interned on the first line).
      expect(last[fieldSlot(at.method) + TemplateRow.value]).toBeGreaterThanOrEqual(0);
    });
  });

  describe('the template scanner on its own', () => {
    const line = Buffer.from(renderNginxLine(shippedSpec, baseValues));
    const at = toFieldIndices(shippedSpec);
    const fieldSlot = (index: number) => TemplateRow.head + TemplateRow.fieldStride * index;

    it('writes a row per line: spans, decoded numbers, interned names and the key path', () => {
      const [row] = scanRows(toBytes([line]), 1);
      const value = (index: number, slot: number = TemplateRow.value) => row?.[fieldSlot(index) + slot];
      const text = (
        index: number,
        from: number = TemplateRow.fieldStart,
        to: number = TemplateRow.fieldEnd,
      ) => line.toString('latin1', value(index, from), value(index, to));
      expect(Array.from(row?.subarray(0, 4) ?? [])).toEqual([0, line.length, line.length + 1, 1]);
      expect([value(at.msec), value(at.status), value(at.sent), value(at.length), value(at.time)]).toEqual([
        1796219300666, 200, 4096, -1, 4,
      ]);
      expect([text(at.address), text(at.method), text(at.uri)]).toEqual([
        '10.20.0.14',
        'GET',
        '/sccache/rocm/gfx1201/e/3/b/e3b0c44298fc',
      ]);
      expect(value(at.uri, TemplateRow.auxA)).toBe(SccachePathFlag.isKey | SccachePathFlag.hasPrefix);
      expect(text(at.uri, TemplateRow.auxB, TemplateRow.auxC)).toBe('rocm/gfx1201');
    });

    it('flags .sccache_check at the root and under a prefix, and a key without a prefix', () => {
      const uris = [
        '/sccache/.sccache_check',
        '/sccache/a/b/.sccache_check',
        '/sccache/e/3/b/e3b0',
        '/sccache/',
      ];
      const rows = scanRows(
        toBytes(uris.map((uri) => Buffer.from(renderNginxLine(shippedSpec, { ...baseValues, uri })))),
        uris.length,
      );
      expect(
        rows.map((row, index) => {
          const slots = row.subarray(fieldSlot(at.uri));
          const uri = uris[index] ?? '';
          const start = slots[TemplateRow.fieldStart] ?? 0;
          const prefix = uri.slice(
            (slots[TemplateRow.auxB] ?? 0) - start,
            (slots[TemplateRow.auxC] ?? 0) - start,
          );
          return [
            slots[TemplateRow.auxA],
            (slots[TemplateRow.auxA] ?? 0) & SccachePathFlag.hasPrefix ? prefix : undefined,
          ];
        }),
      ).toEqual([
        [SccachePathFlag.isCheck | SccachePathFlag.hasPrefix, ''],
        [SccachePathFlag.isCheck | SccachePathFlag.hasPrefix, 'a/b'],
        [SccachePathFlag.isKey | SccachePathFlag.hasPrefix, ''],
        [0, undefined],
      ]);
    });

    it('refuses a spec it cannot read', () => {
      const scanner = requireScanner();
      const spec = toTemplateScannerSpec(shippedSpec, at, '/sccache/');
      expect(() => scanner.createTemplateScanner({ ...spec, decoders: spec.decoders.slice(1) })).toThrow(
        /createTemplateScanner\(spec\): expected/,
      );
      expect(() => scanner.createTemplateScanner({ ...spec, literals: spec.literals.slice(1) })).toThrow(
        /createTemplateScanner\(spec\): expected/,
      );
    });
  });
}

/** A plain GET hit of the shipped conf's variables. */
const baseValues: Readonly<Record<string, string>> = {
  time_iso8601: '2026-12-02T13:48:20+00:00',
  msec: '1796219300.666',
  remote_addr: '10.20.0.14',
  request_method: 'GET',
  uri: '/sccache/rocm/gfx1201/e/3/b/e3b0c44298fc',
  status: '200',
  request_length: '184',
  content_length: '',
  body_bytes_sent: '4096',
  bytes_sent: '4400',
  request_time: '0.004',
  http_user_agent: 'sccache/0.17.0',
  request_completion: 'OK',
};

const methods = ['GET', 'PUT', 'HEAD', 'DELETE', 'PROPFIND', 'MKCOL', 'OPTIONS'];

const uris = [
  '/sccache/',
  '/sccache',
  '/sccache/?x=1',
  '/',
  '',
  '/sccache/rocm/gfx1201/e/3/b/e3b0c44298fc',
  '/sccache/rocm/gfx1201/e/3/b/e3b0',
  '/sccache/rocm/gfx1201/e/3/b/e3b',
  '/sccache/rocm/gfx1201/e/3/b/x3b0',
  '/sccache/rocm/gfx1201/e/3/b/ex3b',
  '/sccache/rocm/gfx1201/e/3/b/e3x0',
  '/sccache/rocm/gfx1201/e/3/b/',
  '/sccache/rocm/gfx1201/e/3/b/e3b0/',
  '/sccache/rocm/gfx1201/e/3/bb/e3b0',
  '/sccache/rocm/gfx1201/ee/3/b/ee3b0',
  '/sccache/rocm/gfx1201/e/33/b/e3b0',
  // Key-name characters that line up when the `a` segment is 3 or 5 long (…/xyz/b/c/xzb…): not keys.
  '/sccache/p/xyz/b/c/xzb0',
  '/sccache/xyz/b/c/xzb0',
  '/sccache/vwxyz/b/c/vxz0',
  '/sccache/e/3/b/e3b0c4',
  '/sccache/3/b/e3b0',
  '/sccache//3/b/3b00',
  '/sccache/b/e3b0',
  '/sccache/e3b0',
  '/sccache//e/3/b/e3b0',
  '/sccache///e/3/b/e3b0',
  '/sccache/x/e/3/b/e3b0',
  '/sccache/rocm//e/3/b/e3b0',
  '/sccache/rocm/e//3/b/e3b0',
  '//sccache/rocm/e/3/b/e3b0',
  '/sccache/rocm/e/3/b/e3b0?x=1',
  '/sccache/rocm/e/3/b/e3b0?',
  '/sccache/rocm/e/3/b/e3b0?/a/b/c/abc',
  '/sccache/?/e/3/b/e3b0',
  '/sccache/rocm/e/3/b/e3b0.tmp',
  '/sccache/.sccache_check',
  '/sccache/rocm/gfx1201/.sccache_check',
  '/sccache/rocm/gfx1201/.sccache_check?x',
  '/sccache/rocm/.sccache_checkx',
  '/sccache/rocm/x.sccache_check',
  '/sccache//.sccache_check',
  '/.sccache_check',
  '.sccache_check',
  '/other/rocm/e/3/b/e3b0',
  '/e/3/b/e3b0',
  'e/3/b/e3b0',
  '///e/3/b/e3b0',
  '/SCCACHE/rocm/e/3/b/e3b0',
  '/sccachex/e/3/b/e3b0',
  '/cache/v2/rocm/e/3/b/e3b0',
  '/cache/v2/e/3/b/e3b0',
  '/cache/v2/.sccache_check',
  '/cache/v2',
  '/sccache/r o/e/3/b/e3b0',
  '/sccache/r%2Fo/e/3/b/e3b0',
  '/sccache/é/e/3/b/e3b0',
  '/sccache/r"o/e/3/b/e3b0',
  '/sccache/r\\o/e/3/b/e3b0',
  '/sccache/rocm/é/3/b/é3b0',
  `/sccache/${'p'.repeat(5000)}/e/3/b/e3b0`,
  `/sccache/${'q/'.repeat(3000)}e/3/b/e3b0`,
];

/** One variant of a plain line per odd case, rendered for `spec` (fields it does not have are left out). */
function oddLines(spec: LogFormatSpec): Buffer[] {
  const render = (values: Readonly<Record<string, string>>) =>
    renderNginxLine(spec, { ...baseValues, ...values });
  const get = render({});
  const put = render({
    request_method: 'PUT',
    status: '201',
    content_length: '4096',
    body_bytes_sent: '0',
  });
  const text: string[] = [get, put, `${get} `, `${get}\t`, `${get}}`, get.slice(0, -1), `${get}${get}`];
  text.push(
    'nginx: [warn] the "ssl" directive is deprecated',
    '',
    ' ',
    '\t',
    '{',
    '{}',
    '[]',
    'null',
    ` ${get}`,
    '{"ts":',
    edit(get, /,"ua":"[^"]*"/, ''),
    edit(get, /"remote_addr":/, '"remote_address":'),
    edit(get, /":/g, '": '),
    // Reordered keys (read by name), with numbers where strings are expected and the other way round.
    JSON.stringify({ ...JSON.parse(get), uri: '/sccache/rocm/e/3/b/e3b0', status: '404', content_length: 7 }),
    JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(get) as object).reverse())),
  );
  for (const method of methods) {
    for (const uri of uris) text.push(render({ request_method: method, uri }));
    for (const status of ['200', '201', '204', '206', '207', '404', '405', '500'])
      text.push(render({ request_method: method, status, content_length: status === '201' ? '13' : '' }));
  }
  for (const method of ['', 'get', 'PUTX', 'PUT ', 'P', 'PATCH', 'COPY', 'MOVE'])
    text.push(render({ request_method: method }));
  for (const remote_addr of [
    '',
    '::1',
    '[::1]',
    '10.20.0.11',
    '10.20.0.11 ',
    '127.0.0.1',
    'unix:',
    'é',
    'x'.repeat(5000),
  ])
    text.push(render({ remote_addr }), render({ remote_addr, request_method: 'PUT', status: '201' }));
  for (const content_length of [
    '',
    '0',
    '13',
    '007',
    '000000000000000',
    '123456789012345',
    '1234567890123456',
    '12345678901234567890',
    '-',
    '-1',
    ' 5',
    '5 ',
    '1e3',
    '0x10',
    '+5',
    '5.0',
    'é',
  ])
    text.push(
      render({ request_method: 'PUT', status: '201', content_length }),
      render({ request_method: 'PUT', status: '204', content_length }),
      render({ content_length }),
    );
  for (const status of [
    '0',
    '00',
    '0200',
    '000000000000200',
    '0000000000000200',
    '999999999999999',
    '9999999999999999',
    '12345678901234567890',
    '',
    '-1',
    '2e2',
    '2.0',
    '20 0',
    '200,1',
    '2"00',
    'null',
  ])
    text.push(
      render({ status }),
      render({ body_bytes_sent: status }),
      render({ request_method: 'PUT', status }),
    );
  for (const msec of [
    '1796219300',
    '1796219300.6',
    '1796219300.66',
    '1796219300.666',
    '1796219300.6666',
    '1796219300.0005',
    '1796219300.999',
    '1796219300.',
    '.666',
    '0',
    '0.000',
    '0.001',
    '00.001',
    '-1796219300.666',
    '-0',
    '',
    '1e9',
    '999999999999.999',
    '9999999999999',
    '9999999999999.5',
    // 13 digits: past what the scanner reads exactly (Math.round(Number(text) * 1000) rounds elsewhere)
    '9999999999999.001',
    '9999999999999.999',
    '01796219300.666',
    '1796219300,666',
    '1796219300.666 ',
    'NaN',
    'Infinity',
  ])
    text.push(render({ msec }), render({ msec, request_method: 'PUT', status: '201' }));
  for (const request_time of [
    '0.004',
    '4',
    '',
    '1e3',
    '0',
    '0.0',
    '0.00',
    '0.000',
    '0.0004',
    '0.0005',
    '0.0015',
    '2.675',
    '-0.004',
    '4.',
    '.004',
    '999999999999.999',
    '9999999999999.001',
    '1234567890123',
    '0,004',
    '0.004,"x',
    'null',
  ])
    text.push(render({ request_time }));
  for (const http_user_agent of ['', 'a"b', 'a\\b', 'é', 'a/b c', 'x'.repeat(9000), '{"ua":"x"}', 'a\tb'])
    text.push(render({ http_user_agent }), render({ http_user_agent, request_method: 'PUT', status: '201' }));
  text.push(
    edit(get, 'rocm', 'r\\u00e9cm'),
    edit(get, 'rocm', 'r\\u006fcm'),
    edit(get, '/sccache/', '\\/sccache\\/'),
    edit(get, 'e3b0c44298fc', 'e3b0c44298fc\\"'),
    edit(get, 'e3b0c44298fc', 'e3b0c44298fc\\\\'),
    edit(get, 'e3b0c44298fc', 'e3b0c44298fc\\'),
    edit(get, 'e3b0c44298fc', 'e3b0c44298fc\\x'),
    edit(get, 'e3b0c44298fc', 'e3b0c44298fc\\ud800'),
    edit(get, 'sccache/0.17.0', 'sccache\\u00e9'),
    edit(get, 'sccache/0.17.0', 'sccache\\"0.17\\"'),
    edit(get, '"GET"', '"G\\u0045T"'),
    edit(get, '"GET"', '"PU\\u0054"'),
    edit(get, '10.20.0.14', '10.20.0.1\\u0034'),
  );
  const lines = text.map((one) => Buffer.from(one));
  // Raw bytes: invalid UTF-8, latin1, NUL, DEL, control characters and CRs inside and at the end.
  const raw = (from: string, bytes: number[], base = get) => {
    const at = base.indexOf(from);
    if (at < 0) return Buffer.from(base);
    return Buffer.concat([
      Buffer.from(base.slice(0, at)),
      Buffer.from(bytes),
      Buffer.from(base.slice(at + from.length)),
    ]);
  };
  const putLine = render({ request_method: 'PUT', status: '201', content_length: '13' });
  for (const bytes of [
    [0xff],
    [0xe9],
    [0xc3, 0x28],
    [0xc3, 0xa9],
    [0x00],
    [0x7f],
    [0x0d],
    [0x09],
    [0x1f],
    [0xef, 0xbf, 0xbd],
  ])
    lines.push(
      raw('rocm', [0x72, ...bytes]),
      raw('rocm', [0x72, ...bytes], putLine),
      raw('sccache/0.17.0', [0x73, ...bytes]),
      raw('10.20.0.14', [0x31, ...bytes]),
      raw('"GET"', [0x22, ...bytes, 0x22]),
      raw('1796219300.666', [0x31, ...bytes]),
      raw('"OK"', [0x22, ...bytes, 0x22]),
      raw('{"ts"', [...bytes, 0x7b, 0x22, 0x74, 0x73, 0x22]),
    );
  lines.push(
    Buffer.concat([Buffer.from(get), Buffer.from('\r')]),
    Buffer.concat([Buffer.from(get), Buffer.from('\r\r')]),
    Buffer.concat([Buffer.from(put), Buffer.from('\r')]),
    Buffer.from('\r'),
  );
  return lines;
}

const timeVariants: Readonly<Record<string, string>>[] = [{}, { request_method: 'PUT', status: '201' }];

/** $time_iso8601 variants (what an isoOnly conf reads as the time; the others ignore it). */
function timeLines(spec: LogFormatSpec): Buffer[] {
  return [
    '2026-12-02T13:48:20+00:00',
    '2026-12-02T13:48:20Z',
    '2026-12-02T13:48:20z',
    '2026-12-02T13:48:20+01:00',
    '2026-12-02T13:48:20-0130',
    '2026-12-02T13:48:20.123Z',
    '2026-12-02T13:48:20.1+00:00',
    '2026-12-02T13:48:20.123456789Z',
    '2026-12-02T13:48:20.1234567891Z',
    '2026-12-02T13:48:20.Z',
    '2026-12-02T13:48:20,5Z',
    '2026-12-02 13:48:20+00:00',
    '2026-12-02t13:48:20+00:00',
    '2026-12-02T13:48:20',
    '2026-12-02T13:48:20+24:00',
    '2026-12-02T13:48:20+01',
    '2026-02-31T13:48:20+00:00',
    '2026-13-02T13:48:20+00:00',
    '2026-12-02T24:00:00+00:00',
    '2026-12-02T23:59:60+00:00',
    '1970-01-01T00:00:00+00:00',
    '1970-01-01T00:00:00.001+00:00',
    '1970-01-01T00:00:00+00:01',
    '1970-01-01T00:00:00-00:01',
    '1969-12-31T23:59:59+00:00',
    '0099-01-01T00:00:00+00:00',
    '9999-12-31T23:59:59+00:00',
    '',
    'garbage',
  ].flatMap((time_iso8601) =>
    timeVariants.map((values) =>
      Buffer.from(renderNginxLine(spec, { ...baseValues, ...values, time_iso8601 })),
    ),
  );
}

/** The line with `from` (its first occurrence, or every one of a global expression) replaced. */
const edit = (line: string, from: string | RegExp, to: string) => line.replace(from, to);

const fuzzTokens = [
  '\\"',
  '\\\\',
  '\\u00e9',
  '\\/',
  '/',
  '//',
  '?',
  '.sccache_check',
  '/e/3/b/',
  'e3b',
  '"',
  ',',
  '0',
  '9'.repeat(16),
  '.',
  '.5',
  '-',
  'é',
  ' ',
  '""',
  ':',
  'PUT',
  '201',
];

/** Fixture, generated and odd lines, each with 1-3 edits: the repo's text mutator, sccache tokens, or byte flips. */
function mutatedLines(count: number, seed: number): Buffer[] {
  const random = createRandom(seed);
  const seeds = splitLines(readFileSync(path.join(fixtures, 'sccache-session.log'))).map((line) =>
    line.toString('latin1'),
  );
  for (let index = 0; index < 40; index++)
    for (const values of generateSccacheRequest(random.next, Date.UTC(2026, 11, 2) + index, `p${index % 3}`))
      seeds.push(renderNginxLine(shippedSpec, values));
  const odd = oddLines(shippedSpec);
  for (let index = 0; index < odd.length; index += 7) seeds.push(odd[index]?.toString('latin1') ?? '');
  return mutateLines({ seeds, tokens: fuzzTokens, count, random });
}
