import { describe, expect, it } from 'vitest';
import { createSampleTable, type Sample } from '../../../src/artifacts/index.js';
import { findSampleShortfall } from '../../../src/report/find-sample-shortfall.js';
import { makeRunFile, T0 } from './make-run-inputs.js';

// samples.jsonl against the makespan: a stretch with no line at all (not a failed scrape) is lines lost.

const S = 1000;
const line = (node: string, i: number): Sample => ({
  version: 1,
  node,
  tsMs: T0 + i * S,
  ok: false,
  error: 'timeout',
});
const every = (node: string, from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => line(node, from + k));
const window: [number, number] = [T0, T0 + 100 * S];
const run = makeRunFile();

describe('findSampleShortfall', () => {
  it('finds nothing when every node has a line every second, failed scrapes included', () => {
    const samples = createSampleTable([...every('forge', 0, 101), ...every('strix', 0, 101)]);
    expect(findSampleShortfall({ samples, run, window })).toBeUndefined();
  });

  it('names the node, the stretch and about how many samples are missing: at the end and in the middle', () => {
    const samples = createSampleTable([
      ...every('forge', 0, 50),
      ...every('strix', 0, 20),
      ...every('strix', 60, 101),
    ]);
    const shortfall = findSampleShortfall({ samples, run, window });
    expect(shortfall?.nodes).toEqual(['forge', 'strix']);
    expect(shortfall?.message).toMatch(
      /^samples\.jsonl: no line at all over part of the 100\.0 s makespan for 2 of 2 nodes: forge 51\.0 s \(\+49\.0 s → \+100\.0 s; about 51 samples\); strix 41\.0 s \(\+19\.0 s → \+60\.0 s; about 41 samples\)/,
    );
  });

  it('allows three sampling intervals (run.json’s, else the lines’ own median step) before calling a stretch missing', () => {
    const samples = createSampleTable([
      ...Array.from({ length: 11 }, (_, k) => line('forge', k * 10)),
      ...Array.from({ length: 11 }, (_, k) => line('strix', k * 10)),
    ]);
    expect(findSampleShortfall({ samples, run, window })).toBeUndefined();
    const sampledEverySecond = makeRunFile({ samples: { source: 'node_exporter', intervalMs: S } });
    expect(findSampleShortfall({ samples, run: sampledEverySecond, window })?.nodes).toEqual([
      'forge',
      'strix',
    ]);
  });

  it('says nothing while the run is live or without run.json', () => {
    const samples = createSampleTable(every('forge', 0, 10));
    expect(findSampleShortfall({ samples, run: makeRunFile({ status: 'running' }), window })).toBeUndefined();
    expect(findSampleShortfall({ samples, run: undefined, window })).toBeUndefined();
  });
});
