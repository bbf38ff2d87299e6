import { describe, expect, it } from 'vitest';
import { parseSampleLines, toSampleLine } from '../../../../src/collect/index.js';
import type { Sample } from '../../../../src/artifacts/index.js';
import { ArtifactError } from '../../../../src/shared/errors.js';

const ok: Sample = {
  version: 1,
  node: 'strix',
  tsMs: 1000,
  ok: true,
  cpuBusyPct: 12.5,
  memUsedPct: 40,
  diskReadBps: 0,
  diskWriteBps: 1024,
  netRxBps: null,
  netTxBps: null,
  load1: 2,
};
const gap: Sample = {
  version: 1,
  node: 'wifi-node',
  tsMs: 1000,
  ok: false,
  error: 'http://wifi-node:9100/metrics: connect ECONNREFUSED',
};

describe('parseSampleLines (samples.jsonl)', () => {
  it('round-trips the lines the sampler writes', () => {
    const { samples, stats } = parseSampleLines(toSampleLine(ok) + toSampleLine(gap), 'samples.jsonl');
    expect(samples).toEqual([ok, gap]);
    expect(stats).toMatchObject({ lines: 2, records: 2, rejected: 0, skipped: 0 });
  });

  it('rejects a truncated last line and a line that breaks the schema, with line numbers', () => {
    const broken = JSON.stringify({ ...ok, cpuBusyPct: 'high' });
    const text = `${toSampleLine(ok)}${broken}\r\n\n${toSampleLine(gap).slice(0, 30)}`;
    const { samples, stats } = parseSampleLines(text, 'samples.jsonl');
    expect(samples).toEqual([ok]);
    expect(stats).toMatchObject({
      lines: 4,
      records: 1,
      skipped: 1,
      skippedByReason: { blank: 1 },
      rejected: 2,
    });
    expect(stats.rejectedExamples).toEqual([
      { line: 2, reason: expect.stringMatching(/^cpuBusyPct: /) as unknown },
      { line: 4, reason: 'not JSON (truncated or corrupted line)' },
    ]);
  });

  it('refuses a file written by another samples version, naming the file, line and fix', () => {
    const text = toSampleLine(ok) + JSON.stringify({ ...gap, version: 2 });
    expect(() => parseSampleLines(text, 'run/samples.jsonl')).toThrow(ArtifactError);
    expect(() => parseSampleLines(text, 'run/samples.jsonl')).toThrow(
      /run\/samples\.jsonl: line 2: samples version 2.*re-run the sampler/,
    );
  });
});
