import { describe, expect, it } from 'vitest';
import {
  FINGERPRINT_LIMIT_BYTES,
  parseFileRecords,
} from '../../../../../src/run/cache-logs/log-rotation/index.js';
import {
  formatFingerprint,
  toCompression,
  toFingerprint,
} from '../../../../../src/run/cache-logs/log-rotation/parse-file-records.js';

const nginxLine =
  '{"msec":1733230000.123,"remote_addr":"10.213.7.11","request_method":"GET","uri":"/sccache/a/b/c/abc1","status":404}';
const record = (name: string, stat: string, firstLine: string) =>
  `${name}\0${stat}\0${Buffer.from(firstLine, 'utf8').toString('base64')}\0`;

describe('toFingerprint', () => {
  it.each([
    ['a complete first line', `${nginxLine}\n`, nginxLine],
    ['a line still being written', nginxLine.slice(0, 40), undefined],
    ['an empty file', '', undefined],
    ['a blank first line', '\n', undefined],
    [
      'a first line longer than the limit',
      'x'.repeat(FINGERPRINT_LIMIT_BYTES),
      'x'.repeat(FINGERPRINT_LIMIT_BYTES),
    ],
  ])('%s', (_name, bytes, expected) => {
    expect(toFingerprint(Buffer.from(bytes, 'utf8'))).toBe(expected);
  });
});

describe('toCompression', () => {
  it.each([
    ['sccache.log.1', undefined],
    ['sccache.log.2.gz', 'gz'],
    ['zot.jsonl-20250101.xz', 'xz'],
    ['zot.jsonl-20250101-1735689600.bz2', 'bz2'],
    ['zot.jsonl.3.zst', 'zst'],
    ['zot.jsonl-20250101', undefined],
  ])('%s → %s', (name, expected) => {
    expect(toCompression(name)).toBe(expected);
  });
});

describe('parseFileRecords', () => {
  it('reads name, inode, size and first line per file', () => {
    const stdout = Buffer.from(
      record('sccache.log', '1201 512', `${nginxLine}\n`) +
        record('sccache.log.1.gz', '1187 204', 'older line\nsecond\n') +
        record('sccache.log-20250101', '1190 0', ''),
    );
    expect(parseFileRecords(stdout)).toEqual([
      { name: 'sccache.log', inode: 1201, sizeBytes: 512, compression: undefined, fingerprint: nginxLine },
      { name: 'sccache.log.1.gz', inode: 1187, sizeBytes: 204, compression: 'gz', fingerprint: 'older line' },
      {
        name: 'sccache.log-20250101',
        inode: 1190,
        sizeBytes: 0,
        compression: undefined,
        fingerprint: undefined,
      },
    ]);
  });

  it('an empty listing (the log is absent) is no records', () => {
    expect(parseFileRecords(Buffer.alloc(0))).toEqual([]);
  });

  it('a garbled listing is a message naming the record', () => {
    expect(parseFileRecords(Buffer.from('zot.jsonl\0not a stat\0\0'))).toBe(
      'file 1 ("zot.jsonl"): bad stat "not a stat"',
    );
    expect(parseFileRecords(Buffer.from('zot.jsonl\0'))).toMatch(/got 1 fields/);
  });
});

describe('formatFingerprint', () => {
  it('quotes the start of the line for messages', () => {
    expect(formatFingerprint('{"time":"2025-01-01T00:00:00Z"}')).toBe(
      'first line "{\\"time\\":\\"2025-01-01T00:00:00Z\\"}"',
    );
    expect(formatFingerprint('y'.repeat(100))).toBe(`first line "${'y'.repeat(60)}…"`);
    expect(formatFingerprint(undefined)).toBe('no complete first line');
  });
});
