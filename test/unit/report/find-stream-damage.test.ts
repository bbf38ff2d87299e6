import { describe, expect, it } from 'vitest';
import { findStreamDamage } from '../../../src/report/find-stream-damage.js';
import { makeRunFile, stream } from './make-run-inputs.js';

// Each check of an input file on its own: against run.json's slice record, and against itself.

const slice = {
  kind: 'registry' as const,
  file: 'zot.jsonl',
  host: 'root@logs:22',
  remotePath: '/var/log/zot.jsonl',
  startOffset: 0,
  endOffset: 1000,
  sizeBytes: 1000,
};
const run = makeRunFile({ logs: [slice] });

describe('findStreamDamage', () => {
  it.each([
    [900, 'zot.jsonl: 900 of the 1,000 bytes run.json recorded for this slice (100 bytes missing'],
    [1100, 'zot.jsonl: 1,100 bytes, but run.json recorded 1,000 bytes for this slice (100 bytes more'],
  ])('a %i-byte slice run.json recorded as 1,000 bytes', (bytes, message) => {
    const damage = findStreamDamage({ stream: stream('zot.jsonl', { bytes }), run, inFlight: false });
    expect(damage).toEqual([expect.stringContaining(message)]);
  });

  it('says nothing of a slice of the recorded size, or of a inFlight run whose files are still growing', () => {
    expect(findStreamDamage({ stream: stream('zot.jsonl', { bytes: 1000 }), run, inFlight: false })).toEqual(
      [],
    );
    expect(findStreamDamage({ stream: stream('zot.jsonl', { bytes: 10 }), run, inFlight: true })).toEqual([]);
  });

  it('passes on the capture’s own warning about the slice', () => {
    const warned = makeRunFile({ logs: [{ ...slice, warning: 'zot.jsonl.1 was gone before it was read' }] });
    expect(
      findStreamDamage({ stream: stream('zot.jsonl', { bytes: 1000 }), run: warned, inFlight: false }),
    ).toEqual([
      'zot.jsonl: the capture recorded bytes missing from the slice: zot.jsonl.1 was gone before it was read',
    ]);
  });

  it('names rejected lines with their line numbers', () => {
    const rejected = stream('sccache.log', {
      rejected: 4,
      records: 10,
      rejectedExamples: [
        { line: 3, reason: 'truncated JSON line' },
        { line: 7, reason: 'invalid JSON' },
        { line: 8, reason: 'invalid JSON' },
        { line: 9, reason: 'invalid JSON' },
      ],
    });
    expect(findStreamDamage({ stream: rejected, run: undefined, inFlight: false })).toEqual([
      'sccache.log: 4 lines rejected (line 3: truncated JSON line; line 7: invalid JSON; line 8: invalid JSON; 1 more); its figures miss what those lines held',
    ]);
  });

  it('a cut last line is damage once the run is over, and a line in flight while it is inFlight', () => {
    const cut = stream('samples.jsonl', { skipped: 1, skippedByReason: { 'unterminated last line': 1 } });
    expect(findStreamDamage({ stream: cut, run: undefined, inFlight: false })).toEqual([
      expect.stringMatching(/^samples\.jsonl: the last line is cut off/),
    ]);
    expect(findStreamDamage({ stream: cut, run: undefined, inFlight: true })).toEqual([]);
  });

  it('counts a skip reason as damage only where the format never writes such lines', () => {
    const skipped = stream('zot.jsonl', { skipped: 2, skippedByReason: { 'not JSON': 2 } });
    expect(findStreamDamage({ stream: skipped, run: undefined, inFlight: false })).toEqual([]);
    expect(
      findStreamDamage({
        stream: { ...skipped, unexpectedSkips: ['not JSON'] },
        run: undefined,
        inFlight: false,
      }),
    ).toEqual([expect.stringMatching(/^zot\.jsonl: 2 lines skipped as "not JSON"/)]);
  });

  it('an unreadable file says why, and nothing else', () => {
    const unreadable = { ...stream('zot.jsonl', { bytes: 0 }), unreadable: 'EACCES: permission denied' };
    expect(findStreamDamage({ stream: unreadable, run, inFlight: false })).toEqual([
      'zot.jsonl: cannot be read (EACCES: permission denied); every figure from it is missing',
    ]);
  });
});
