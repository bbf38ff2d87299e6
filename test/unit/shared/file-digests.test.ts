import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFileDigests } from '../../../src/shared/file-digests.js';

// The digests a run records as it writes: held to node:crypto over the same bytes, computed here in one piece.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('createFileDigests', () => {
  it('hashes a whole file and a streamed one as the bytes that went to disk', () => {
    const digests = createFileDigests();
    digests.recordWhole('plan.json', '{"version":1}\n');
    const samples = digests.open('samples.jsonl');
    const lines = ['{"tsMs":1}\n', '{"tsMs":2}\n', 'ü\n'];
    for (const line of lines) samples.update(line);
    samples.update(Buffer.from([0xff, 0x0a]));
    const all = Buffer.concat([Buffer.from(lines.join('')), Buffer.from([0xff, 0x0a])]);
    expect(digests.toRecords()).toEqual({
      'plan.json': { sizeBytes: 14, sha256: sha256('{"version":1}\n') },
      'samples.jsonl': { sizeBytes: all.length, sha256: createHash('sha256').update(all).digest('hex') },
    });
  });

  it('keeps a trace’s IDs, and starts a rewritten file over', () => {
    const digests = createFileDigests();
    digests.recordWhole('trace-a.json', '{}', { traceIds: ['abc'] });
    const samples = digests.open('samples.jsonl');
    samples.update('old\n');
    samples.restart();
    samples.update('new\n');
    expect(digests.toRecords()).toEqual({
      'samples.jsonl': { sizeBytes: 4, sha256: sha256('new\n') },
      'trace-a.json': { sizeBytes: 2, sha256: sha256('{}'), traceIds: ['abc'] },
    });
    // toRecords does not end a stream: later writes still count.
    samples.update('more\n');
    expect(digests.toRecords()['samples.jsonl']).toEqual({ sizeBytes: 9, sha256: sha256('new\nmore\n') });
  });
});
