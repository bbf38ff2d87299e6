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

  it('says nothing when every scrape answered', () => {
    expect(findSampleGaps(createSampleTable([good('kiln', 0), good('kiln', 2)]))).toEqual([]);
  });
});
