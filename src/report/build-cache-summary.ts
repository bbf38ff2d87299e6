import { addSccacheRecord, createSccacheTotals, summarizeRegistry } from '../collect/index.js';
import type { RegistryRecord, RegistryWriteTotals, SccacheRecord, SccacheTotals } from '../collect/index.js';
import type { RegistryCounts, SccacheCounts, Summary } from '../artifacts/index.js';

// Compiler-cache and registry traffic, aggregated from the parsed records with collect's counters. The report's
// own grouping: only this run's key prefix is split per node (collect's byNode spans every prefix), a record is
// attributed to a node by its client address (run.json nodes[].address; unattributed traffic keeps the raw
// address as its key), and the prefix is matched exactly.

export interface SccacheSummaryOptions {
  records: readonly SccacheRecord[];
  prefix: string | undefined;
  nodeOf: (address: string) => string;
}

export function buildSccacheSummary({ records, prefix, nodeOf }: SccacheSummaryOptions): Summary['sccache'] {
  const total = createSccacheTotals();
  const outsidePrefix = createSccacheTotals();
  const perNode: Record<string, SccacheTotals> = {};
  for (const record of records) {
    if (record.kind !== 'hit' && record.kind !== 'miss' && record.kind !== 'write') continue;
    if (prefix !== undefined && record.keyPrefix !== prefix) {
      addSccacheRecord(outsidePrefix, record);
      continue;
    }
    addSccacheRecord(total, record);
    addSccacheRecord((perNode[nodeOf(record.clientAddress)] ??= createSccacheTotals()), record);
  }
  const byNode = Object.entries(perNode).sort(([a], [b]) => a.localeCompare(b));
  return {
    prefix: prefix ?? null,
    total: toSccacheCounts(total),
    perNode: Object.fromEntries(byNode.map(([node, totals]) => [node, toSccacheCounts(totals)])),
    outsidePrefix: toSccacheCounts(outsidePrefix),
  };
}

function toSccacheCounts({ hits, misses, writes, bytesRead, bytesWritten }: SccacheTotals): SccacheCounts {
  return { hits, misses, writes, bytesRead, bytesWritten };
}

/** collect's registry summary, cache vs image; writes of unknown size are counted apart, never added as 0. */
export function buildRegistrySummary(records: readonly RegistryRecord[]): Summary['registry'] {
  const { cache, image } = summarizeRegistry(records);
  return {
    cache: toRegistryCounts(cache),
    image: toRegistryCounts(image),
    writesWithoutSize: cache.bytesUnknown + image.bytesUnknown,
  };
}

function toRegistryCounts({
  bytesWritten,
  blobsWritten,
  manifestsWritten,
}: RegistryWriteTotals): RegistryCounts {
  return { bytesWritten, blobsWritten, manifestsWritten };
}
