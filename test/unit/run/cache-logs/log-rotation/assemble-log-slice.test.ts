import { describe, expect, it } from 'vitest';
import {
  assembleLogSlice,
  findFirstDifference,
  type LogGeneration,
  type SlicePart,
} from '../../../../../src/run/cache-logs/log-rotation/index.js';

const b = (text: string) => Buffer.from(text, 'utf8');
const generation = (overrides: Partial<LogGeneration>): LogGeneration => ({
  index: 0,
  inode: 7,
  fingerprint: 'l0',
  startOffset: 0,
  appendedOffset: 0,
  localOffset: 0,
  seenSizeBytes: 0,
  ...overrides,
});
/** The slice's bytes: its parts resolved against the run dir's live copy (every generation's appended bytes). */
const render = (parts: SlicePart[], runDirCopy: string) =>
  parts
    .map((part) =>
      part.from === 'bytes'
        ? part.bytes.toString('utf8')
        : b(runDirCopy)
            .subarray(part.offset, part.offset + part.length)
            .toString('utf8'),
    )
    .join('');

describe('findFirstDifference', () => {
  it.each([
    ['equal', 'abc', 'abc', undefined],
    ['one a prefix of the other', 'ab', 'abcd', undefined],
    ['empty', '', 'abc', undefined],
    ['differ at 2', 'abX', 'abcd', 2],
  ])('%s', (_name, a, c, expected) => {
    expect(findFirstDifference(b(a), b(c))).toBe(expected);
  });
});

describe('assembleLogSlice', () => {
  it('no rotation: the log read by range, the live copy taken once', () => {
    const slice = assembleLogSlice({
      logPath: '/var/log/zot.jsonl',
      pieces: [
        {
          generation: generation({ startOffset: 10, appendedOffset: 16, seenSizeBytes: 19 }),
          remote: { path: '/var/log/zot.jsonl', lengthBytes: 9, extra: b('r3\n') },
          isCurrent: true,
        },
      ],
    });
    expect(render(slice.parts, 'r1\nr2\n')).toBe('r1\nr2\nr3\n');
    expect(slice).toMatchObject({ sizeBytes: 9, endOffset: 19, warnings: [] });
    expect(slice.segments).toEqual([
      { generation: 0, source: 'remote', remotePath: '/var/log/zot.jsonl', fromOffset: 10, toOffset: 19 },
    ]);
  });

  it('copytruncate: the rotated copy, then the lines appended live that the copy missed, then the new log', () => {
    const slice = assembleLogSlice({
      logPath: '/var/log/zot.jsonl',
      pieces: [
        {
          // The copy holds bytes up to 13; the harness appended 13–16 between copy and truncate.
          generation: generation({ startOffset: 4, appendedOffset: 16, seenSizeBytes: 16 }),
          remote: { path: '/var/log/zot.jsonl.1', lengthBytes: 9, extra: b('') },
          isCurrent: false,
        },
        {
          generation: generation({
            index: 1,
            fingerprint: 'n1',
            appendedOffset: 3,
            localOffset: 12,
            seenSizeBytes: 6,
          }),
          remote: { path: '/var/log/zot.jsonl', lengthBytes: 6, extra: b('n2\n') },
          isCurrent: true,
        },
      ],
    });
    expect(render(slice.parts, 'a1\na2\na3\nL1\nn1\n')).toBe('a1\na2\na3\nL1\nn1\nn2\n');
    expect(slice.sizeBytes).toBe(18);
    expect(slice.endOffset).toBe(6);
    expect(slice.warnings).toEqual([]);
    expect(slice.segments).toEqual([
      { generation: 0, source: 'remote', remotePath: '/var/log/zot.jsonl.1', fromOffset: 4, toOffset: 13 },
      { generation: 0, source: 'live', remotePath: '/var/log/zot.jsonl', fromOffset: 13, toOffset: 16 },
      { generation: 1, source: 'remote', remotePath: '/var/log/zot.jsonl', fromOffset: 0, toOffset: 6 },
    ]);
  });

  it('a deleted rotated file: the live copy is kept and the warning names the file and the bytes missing', () => {
    const slice = assembleLogSlice({
      logPath: '/var/log/zot.jsonl',
      pieces: [
        {
          generation: generation({ startOffset: 4, appendedOffset: 10, seenSizeBytes: 25 }),
          missing:
            'was not found among the files beside it in /var/log (deleted, or moved elsewhere by olddir?)',
          isCurrent: false,
        },
        {
          generation: generation({
            index: 1,
            fingerprint: 'n1',
            appendedOffset: 3,
            localOffset: 6,
            seenSizeBytes: 3,
          }),
          remote: { path: '/var/log/zot.jsonl', lengthBytes: 3, extra: b('') },
          isCurrent: true,
        },
      ],
    });
    expect(render(slice.parts, 'a1\na2\nn1\n')).toBe('a1\na2\nn1\n');
    expect(slice.segments.map((segment) => segment.source)).toEqual(['live', 'remote']);
    expect(slice.warnings).toEqual([
      '/var/log/zot.jsonl: the file that was the log at the start (first line "l0") was not found among the files beside it in /var/log (deleted, or moved elsewhere by olddir?); bytes 4–10 kept from the copy appended during the run; bytes written to it after offset 10 are missing (at least bytes 10–25: a poll saw it at 25 bytes)',
    ]);
  });

  it('the log itself unreadable at the end: the live copy, and the rest is said to be still on the host', () => {
    const slice = assembleLogSlice({
      logPath: '/l',
      pieces: [
        {
          generation: generation({ appendedOffset: 3, seenSizeBytes: 3 }),
          missing: 'could not be read (timed out)',
          isCurrent: true,
        },
      ],
    });
    expect(render(slice.parts, 'x1\n')).toBe('x1\n');
    expect(slice.warnings[0]).toBe(
      '/l: the file that was the log at the start (first line "l0") could not be read (timed out); bytes 0–3 kept from the copy appended during the run; bytes after offset 3 are still in the log on the host but not in the slice',
    );
  });
});
