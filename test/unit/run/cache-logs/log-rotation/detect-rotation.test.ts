import { describe, expect, it } from 'vitest';
import {
  createGeneration,
  detectRotation,
  findRotatedFiles,
  findUnplacedFiles,
  type RemoteFileRecord,
} from '../../../../../src/run/cache-logs/log-rotation/index.js';
import { toCompression } from '../../../../../src/run/cache-logs/log-rotation/parse-file-records.js';

const file = (overrides: Partial<RemoteFileRecord>): RemoteFileRecord => ({
  name: 'zot.jsonl',
  inode: 100,
  sizeBytes: 1000,
  compression: toCompression(overrides.name ?? ''),
  fingerprint: 'first line A',
  ...overrides,
});

// The generation followed: the log at the start, 600 bytes, of which the run-dir copy holds up to 800 by now.
const followed = {
  ...createGeneration({ index: 0, record: file({ sizeBytes: 600 }), startOffset: 600, localOffset: 0 }),
  appendedOffset: 800,
};

describe('detectRotation', () => {
  it.each([
    ['the same file, grown', file({ sizeBytes: 900 }), undefined],
    ['the same file, unchanged', file({ sizeBytes: 800 }), undefined],
    [
      'copytruncate: same inode, smaller',
      file({ sizeBytes: 40, fingerprint: 'first line B' }),
      'the file shrank from 800 to 40 bytes',
    ],
    [
      'copytruncate, grown back past the offset',
      file({ sizeBytes: 5000, fingerprint: 'first line B' }),
      'its first line changed (truncated and written again)',
    ],
    [
      'rename + create: a new inode',
      file({ inode: 101, sizeBytes: 0, fingerprint: undefined }),
      'the file was replaced (inode 100 → 101)',
    ],
    ['renamed, not re-created yet', undefined, 'the file is gone (renamed, not re-created yet)'],
    [
      'truncated to empty (no first line to compare)',
      file({ sizeBytes: 0, fingerprint: undefined }),
      'the file shrank from 800 to 0 bytes',
    ],
  ])('%s', (_name, observed, expected) => {
    expect(detectRotation(followed, observed)).toBe(expected);
  });

  it('a generation without a complete first line yet is not rotated by a first line appearing', () => {
    const empty = createGeneration({
      index: 1,
      record: file({ sizeBytes: 0, fingerprint: undefined }),
      startOffset: 0,
      localOffset: 0,
    });
    expect(detectRotation(empty, file({ sizeBytes: 300 }))).toBeUndefined();
  });
});

describe('findRotatedFiles', () => {
  const records = [
    file({ name: 'zot.jsonl', inode: 100, fingerprint: 'first line B' }),
    file({ name: 'zot.jsonl.2.gz', inode: 90, fingerprint: 'first line A', sizeBytes: 200 }),
    file({ name: 'zot.jsonl.1', inode: 95, fingerprint: 'first line A', sizeBytes: 1200 }),
    file({ name: 'zot.jsonl-backup', inode: 96, fingerprint: 'first line A', sizeBytes: 700 }),
    file({ name: 'zot.jsonl.3.gz', inode: 80, fingerprint: 'older' }),
  ];

  it('copytruncate: the copies with its first line, uncompressed and larger first; never the log itself', () => {
    expect(
      findRotatedFiles({ records, generation: followed, logName: 'zot.jsonl' }).map((r) => r.name),
    ).toEqual(['zot.jsonl.1', 'zot.jsonl-backup', 'zot.jsonl.2.gz']);
  });

  it('rename: the file that kept its inode comes first', () => {
    const renamed = [
      ...records,
      file({ name: 'zot.jsonl.0', inode: 100, fingerprint: 'first line A', sizeBytes: 10 }),
    ];
    expect(findRotatedFiles({ records: renamed, generation: followed, logName: 'zot.jsonl' })[0]?.name).toBe(
      'zot.jsonl.0',
    );
  });

  it('a generation with no complete first line is found by inode only, and only uncompressed', () => {
    const generation = { inode: 90, fingerprint: undefined };
    expect(findRotatedFiles({ records, generation, logName: 'zot.jsonl' })).toEqual([]);
    const plain = [file({ name: 'zot.jsonl.1', inode: 90, fingerprint: 'anything' })];
    expect(findRotatedFiles({ records: plain, generation, logName: 'zot.jsonl' }).map((r) => r.name)).toEqual(
      ['zot.jsonl.1'],
    );
  });

  it('an inode reused by another file with a different first line is not a match', () => {
    const reused = [file({ name: 'zot.jsonl.1', inode: 100, fingerprint: 'first line Z' })];
    expect(findRotatedFiles({ records: reused, generation: followed, logName: 'zot.jsonl' })).toEqual([]);
  });
});

describe('findUnplacedFiles', () => {
  it('names siblings whose first line is neither from before the run nor of a followed generation', () => {
    const records = [
      file({ name: 'zot.jsonl', fingerprint: 'gen 2' }),
      file({ name: 'zot.jsonl.1', fingerprint: 'gen 1' }),
      file({ name: 'zot.jsonl.2', fingerprint: 'missed between polls' }),
      file({ name: 'zot.jsonl.3.gz', fingerprint: 'before the run' }),
      file({ name: 'zot.jsonl.4', fingerprint: undefined }),
    ];
    const knownFingerprints = new Set(['before the run', 'gen 1', 'gen 2']);
    expect(
      findUnplacedFiles({ records, knownFingerprints, logName: 'zot.jsonl' }).map((r) => r.name),
    ).toEqual(['zot.jsonl.2']);
  });
});
