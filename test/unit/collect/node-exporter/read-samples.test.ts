import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSamplesTail, readSamples } from '../../../../src/collect/index.js';
import { createSampleLineParser } from '../../../../src/collect/node-exporter/create-sample-line-parser.js';
import { toSampleLine } from '../../../../src/collect/node-exporter/write-samples.js';
import { toByteLine } from '../../../../src/collect/logs/byte-line.js';
import type { Sample, SampleTable } from '../../../../src/artifacts/index.js';
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
const at = (sample: Sample, tsMs: number, cpuBusyPct: number | null = 10): Sample =>
  sample.ok ? { ...sample, tsMs, cpuBusyPct } : { ...sample, tsMs };

/** One node's columns as rows, for comparing with what was written. */
function rowsOf(table: SampleTable, node: string): [number, number | null, number | null, string | null][] {
  const columns = table.nodes.get(node);
  if (!columns) return [];
  return Array.from({ length: columns.length }, (_, i) => [
    columns.tsMs[i]!,
    Number.isNaN(columns.cpuBusyPct[i]!) ? null : columns.cpuBusyPct[i]!,
    Number.isNaN(columns.memUsedPct[i]!) ? null : columns.memUsedPct[i]!,
    columns.errorId[i]! < 0 ? null : table.errors[columns.errorId[i]!]!,
  ]);
}

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-samples-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the samples.jsonl line parser', () => {
  it('round-trips the lines the sampler writes, every field', () => {
    const parser = createSampleLineParser('samples.jsonl');
    const outcomes = [ok, gap].map((sample) => parser.parseLine(toByteLine(toSampleLine(sample).trimEnd())));
    expect(outcomes).toEqual([
      { ok: true, record: ok },
      { ok: true, record: gap },
    ]);
    expect(parser.timeOfLine(toSampleLine(ok))).toBe(1000);
  });
});

describe('readSamples', () => {
  it('keeps per node the time, CPU, memory and error of each line, in time order', async () => {
    const file = path.join(dir, 'samples.jsonl');
    const lines = [at(gap, 2000), at(ok, 1000, null), at(ok, 2000, 20), at(ok, 3000, 30), at(gap, 4000)];
    writeFileSync(file, lines.map(toSampleLine).join(''));
    const { table, stats } = await readSamples(file);
    expect(stats).toMatchObject({ lines: 5, records: 5, rejected: 0 });
    expect(table.size).toBe(5);
    expect(rowsOf(table, 'strix')).toEqual([
      [1000, null, 40, null],
      [2000, 20, 40, null],
      [3000, 30, 40, null],
    ]);
    expect(rowsOf(table, 'wifi-node')).toEqual([
      [2000, null, null, gap.ok ? null : gap.error],
      [4000, null, null, gap.ok ? null : gap.error],
    ]);
    expect(table.errors).toHaveLength(1);
  });

  it('rejects a line that breaks the schema, with its line number; a truncated last line is skipped as such', async () => {
    const file = path.join(dir, 'samples.jsonl');
    const broken = JSON.stringify({ ...ok, cpuBusyPct: 'high' });
    writeFileSync(file, `${toSampleLine(ok)}${broken}\r\n\n${toSampleLine(gap).slice(0, 30)}`);
    const { table, stats } = await readSamples(file);
    expect(table.size).toBe(1);
    expect(stats).toMatchObject({
      lines: 4,
      records: 1,
      skipped: 2,
      skippedByReason: { blank: 1, 'unterminated last line': 1 },
      rejected: 1,
    });
    expect(stats.rejectedExamples).toEqual([
      { line: 2, reason: expect.stringMatching(/^cpuBusyPct: /) as unknown },
    ]);
  });

  it('refuses a file written by another samples version, naming the file, line and fix', async () => {
    const file = path.join(dir, 'samples.jsonl');
    writeFileSync(file, `${JSON.stringify({ ...gap, version: 2 })}\n${toSampleLine(ok)}`);
    await expect(readSamples(file)).rejects.toThrow(ArtifactError);
    await expect(readSamples(file)).rejects.toThrow(
      /samples\.jsonl: line 1: samples version 2.*re-run the sampler/,
    );
  });

  it('loses only the line when one line of a version-1 file has another version (issue 35 item 7)', async () => {
    const file = path.join(dir, 'samples.jsonl');
    writeFileSync(
      file,
      toSampleLine(at(ok, 1000)) +
        `${JSON.stringify({ ...at(ok, 2000), version: 2 })}\n` +
        toSampleLine(at(ok, 3000)),
    );
    const { table, stats } = await readSamples(file);
    expect(rowsOf(table, 'strix').map(([t]) => t)).toEqual([1000, 3000]);
    expect(stats).toMatchObject({ lines: 3, records: 2, rejected: 1 });
    expect(stats.rejectedExamples[0]).toMatchObject({
      line: 2,
      reason: expect.stringMatching(/^samples version 2 in a version-1 file/) as unknown,
    });
  });

  it.each([
    ['CPU −850 %', { cpuBusyPct: -850 }, /^cpuBusyPct -850 is outside 0\.\.100 %/],
    ['CPU 1,000,000 %', { cpuBusyPct: 1_000_000 }, /^cpuBusyPct 1000000 is outside 0\.\.100 %/],
    ['memory 4,000 %', { memUsedPct: 4000 }, /^memUsedPct 4000 is outside 0\.\.100 %/],
    ['a negative rate', { netTxBps: -5 }, /^netTxBps -5 is negative/],
  ])('rejects a sample no node can produce (%s), keeping the rest', async (_name, bad, reason) => {
    const file = path.join(dir, 'samples.jsonl');
    writeFileSync(
      file,
      [at(ok, 1000, 10), { ...at(ok, 2000, 20), ...bad }, at(ok, 3000, 30)].map(toSampleLine).join(''),
    );
    const { table, stats } = await readSamples(file);
    expect(rowsOf(table, 'strix').map(([t, cpu]) => [t, cpu])).toEqual([
      [1000, 10],
      [3000, 30],
    ]);
    expect(stats).toMatchObject({ records: 2, rejected: 1 });
    expect(stats.rejectedExamples[0]).toMatchObject({
      line: 2,
      reason: expect.stringMatching(reason) as unknown,
    });
  });

  it('keeps the edges of the physical ranges (0 and 100 %)', async () => {
    const file = path.join(dir, 'samples.jsonl');
    writeFileSync(
      file,
      [{ ...at(ok, 1000, 0), memUsedPct: 100 }, at(ok, 2000, 100)].map(toSampleLine).join(''),
    );
    const { stats } = await readSamples(file);
    expect(stats).toMatchObject({ records: 2, rejected: 0 });
  });

  it("rejects a line that is not later than its node's previous one; other nodes keep their own order", async () => {
    const file = path.join(dir, 'samples.jsonl');
    writeFileSync(
      file,
      [at(ok, 2000), at(gap, 1000), at(ok, 2000), at(ok, 1500), at(ok, 3000)].map(toSampleLine).join(''),
    );
    const { table, stats } = await readSamples(file);
    expect(rowsOf(table, 'strix').map(([t]) => t)).toEqual([2000, 3000]);
    expect(stats.rejectedExamples.map((r) => r.line)).toEqual([3, 4]);
    expect(stats.rejectedExamples[1]?.reason).toMatch(
      /^tsMs 1500 of strix is not after its previous sample \(2000\)/,
    );
  });

  it('names the file when it cannot be read', async () => {
    const file = path.join(dir, 'missing.jsonl');
    await expect(readSamples(file)).rejects.toThrow(/missing\.jsonl.*cannot read the samples file/);
  });
});

describe('createSamplesTail', () => {
  it('adds only the whole lines appended since the last read, and starts over when the file is replaced', async () => {
    const file = path.join(dir, 'samples.jsonl');
    writeFileSync(file, toSampleLine(at(ok, 1000)) + toSampleLine(at(ok, 2000)).slice(0, 20));
    const tail = createSamplesTail(file);
    const first = await tail.read();
    expect(first.changed).toBe(true);
    expect(rowsOf(first.table, 'strix').map(([t]) => t)).toEqual([1000]);
    expect((await tail.read()).changed).toBe(false);
    appendFileSync(file, toSampleLine(at(ok, 2000)).slice(20) + toSampleLine(at(ok, 2500)));
    const second = await tail.read();
    expect(second.changed).toBe(true);
    expect(second.table).toBe(first.table);
    expect(rowsOf(second.table, 'strix').map(([t]) => t)).toEqual([1000, 2000, 2500]);
    rmSync(file);
    // A replaced file starts over: its earlier times are not "backwards" against the old file's.
    writeFileSync(file, toSampleLine(at(ok, 900)));
    const third = await tail.read();
    expect(third.changed).toBe(true);
    expect(rowsOf(third.table, 'strix').map(([t]) => t)).toEqual([900]);
    expect(third.stats.rejected).toBe(0);
  });
});
