import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createSampleLineParser,
  createSamplesTail,
  readSamples,
  toSampleLine,
} from '../../../../src/collect/index.js';
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
    const lines = [at(ok, 3000, 30), at(gap, 2000), at(ok, 1000, null), at(ok, 2000, 20), at(gap, 4000)];
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
    writeFileSync(file, toSampleLine(ok) + JSON.stringify({ ...gap, version: 2 }));
    await expect(readSamples(file)).rejects.toThrow(ArtifactError);
    await expect(readSamples(file)).rejects.toThrow(
      /samples\.jsonl: line 2: samples version 2.*re-run the sampler/,
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
    appendFileSync(file, toSampleLine(at(ok, 2000)).slice(20) + toSampleLine(at(ok, 1500)));
    const second = await tail.read();
    expect(second.changed).toBe(true);
    expect(second.table).toBe(first.table);
    expect(rowsOf(second.table, 'strix').map(([t]) => t)).toEqual([1000, 1500, 2000]);
    rmSync(file);
    writeFileSync(file, toSampleLine(at(ok, 9000)));
    const third = await tail.read();
    expect(third.changed).toBe(true);
    expect(rowsOf(third.table, 'strix').map(([t]) => t)).toEqual([9000]);
  });
});
