// samples.jsonl's MemTotal (node_memory_MemTotal_bytes) as the sample table keeps it: per node, the largest any of
// its samples gave; NaN when none did (samples written before it was kept). The step-usage flags fall back to it.
import { describe, expect, it } from 'vitest';
import { createSampleTable, type Sample } from '../../../src/artifacts/index.js';

const ok = (node: string, tsMs: number, memTotalBytes?: number): Sample => ({
  version: 1,
  node,
  tsMs,
  ok: true,
  cpuBusyPct: 10,
  memUsedPct: 20,
  diskReadBps: null,
  diskWriteBps: null,
  netRxBps: null,
  netTxBps: null,
  load1: null,
  ...(memTotalBytes === undefined ? {} : { memTotalBytes }),
});

describe('the sample table’s memTotalBytes', () => {
  it('keeps the largest MemTotal per node, and NaN for a node whose samples gave none', () => {
    const table = createSampleTable([
      ok('forge', 1, 64e9),
      ok('forge', 2, 63.9e9),
      { version: 1, node: 'forge', tsMs: 3, ok: false, error: 'timed out' },
      ok('kiln', 1),
    ]);
    expect(table.nodes.get('forge')?.memTotalBytes).toBe(64e9);
    expect(table.nodes.get('kiln')?.memTotalBytes).toBeNaN();
  });
});
