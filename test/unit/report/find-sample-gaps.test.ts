import { describe, expect, it } from 'vitest';
import { createSampleTable, type Sample } from '../../../src/artifacts/index.js';
import { buildSampleGapWarnings, findSampleGaps } from '../../../src/report/find-sample-gaps.js';

const T = Date.UTC(2026, 11, 3, 20, 0, 0);
const good = (node: string, s: number): Sample => ({
  version: 1,
  node,
  tsMs: T + s * 1000,
  ok: true,
  cpuBusyPct: 10,
  memUsedPct: 10,
  diskReadBps: 0,
  diskWriteBps: 0,
  netRxBps: 0,
  netTxBps: 0,
  load1: 0,
});
const bad = (node: string, s: number, error = 'connect ECONNREFUSED 10.0.0.4:9100'): Sample => ({
  version: 1,
  node,
  tsMs: T + s * 1000,
  ok: false,
  error,
});

describe('sample gaps', () => {
  it('one stretch per outage and node, to the next good sample, with its errors once each', () => {
    const samples = createSampleTable([
      good('kiln', 0),
      bad('kiln', 2),
      bad('kiln', 4, 'timeout after 2000 ms'),
      bad('kiln', 6),
      good('forge', 4),
      good('kiln', 32),
      bad('forge', 40),
    ]);
    expect(findSampleGaps(samples)).toEqual([
      {
        node: 'kiln',
        fromMs: T + 2000,
        toMs: T + 32_000,
        scrapes: 3,
        errors: ['connect ECONNREFUSED 10.0.0.4:9100', 'timeout after 2000 ms'],
      },
      {
        node: 'forge',
        fromMs: T + 40_000,
        toMs: T + 40_000,
        scrapes: 1,
        errors: ['connect ECONNREFUSED 10.0.0.4:9100'],
      },
    ]);
    expect(buildSampleGapWarnings(samples)[0]).toEqual({
      level: 'note',
      stream: 'samples.jsonl',
      message:
        'kiln: no samples 20:00:02–20:00:32 UTC (30.0 s, 3 failed scrapes): connect ECONNREFUSED 10.0.0.4:9100; timeout after 2000 ms',
    });
  });

  it('sums a node with many stretches up in one note: count, total, the longest three and the errors by count', () => {
    // kiln: a 30 s outage (refused) and five single timeouts; forge: two stretches, still listed one by one.
    const samples = createSampleTable([
      good('kiln', 0),
      ...[10, 20, 30, 40, 50].flatMap((s) => [bad('kiln', s, 'timeout after 1000 ms'), good('kiln', s + 1)]),
      ...[60, 62, 64].map((s) => bad('kiln', s)),
      good('kiln', 90),
      good('forge', 0),
      bad('forge', 5),
      good('forge', 7),
      bad('forge', 9),
      good('forge', 10),
    ]);
    const notes = buildSampleGapWarnings(samples).map((warning) => warning.message);
    // Nodes in the order of their first gap.
    expect(notes).toEqual([
      'forge: no samples 20:00:05–20:00:07 UTC (2.0 s, 1 failed scrape): connect ECONNREFUSED 10.0.0.4:9100',
      'forge: no samples 20:00:09–20:00:10 UTC (1.0 s, 1 failed scrape): connect ECONNREFUSED 10.0.0.4:9100',
      'kiln: no samples in 6 stretches, 35.0 s in all (8 failed scrapes); the longest: ' +
        '20:01:00–20:01:30 UTC (30.0 s, 3 failed scrapes): connect ECONNREFUSED 10.0.0.4:9100; ' +
        '20:00:10–20:00:11 UTC (1.0 s, 1 failed scrape): timeout after 1000 ms; ' +
        '20:00:20–20:00:21 UTC (1.0 s, 1 failed scrape): timeout after 1000 ms; ' +
        'errors: timeout after 1000 ms (in 5 stretches); connect ECONNREFUSED 10.0.0.4:9100 (in 1 stretch)',
    ]);
  });

  it('keeps the notes of a long run with a failed scrape every few minutes to one per node', () => {
    const records: Sample[] = [];
    for (let s = 0; s < 6 * 3600; s++)
      for (const node of ['kiln', 'forge']) records.push(s % 97 === 50 ? bad(node, s) : good(node, s));
    const notes = buildSampleGapWarnings(createSampleTable(records));
    expect(notes.map((warning) => warning.message.split(':')[0])).toEqual(['forge', 'kiln']);
    expect(notes[0]!.message).toContain('no samples in 223 stretches, 223.0 s in all (223 failed scrapes)');
  });

  it('says nothing when every scrape answered', () => {
    expect(findSampleGaps(createSampleTable([good('kiln', 0), good('kiln', 2)]))).toEqual([]);
  });
});
