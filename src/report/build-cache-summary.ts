import type { RegistryRecord, SccacheRecord } from '../collect/types.js';
import type { RegistryCounts, SccacheCounts, Summary } from './data-file.js';

// Compiler-cache and registry traffic, aggregated from the parsed records. A record is attributed to a node by
// its client address (run.json nodes[].address); unattributed traffic keeps the raw address as its key.

export function emptySccacheCounts(): SccacheCounts {
  return { hits: 0, misses: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };
}

function addSccache(counts: SccacheCounts, record: SccacheRecord): void {
  if (record.kind === 'hit') {
    counts.hits += 1;
    counts.bytesRead += record.bytes;
  } else if (record.kind === 'miss') {
    counts.misses += 1;
  } else if (record.kind === 'write') {
    counts.writes += 1;
    counts.bytesWritten += record.bytes;
  }
}

export interface SccacheSummaryOptions {
  records: readonly SccacheRecord[];
  prefix: string | undefined;
  nodeOf: (address: string) => string;
}

export function buildSccacheSummary({ records, prefix, nodeOf }: SccacheSummaryOptions): Summary['sccache'] {
  const total = emptySccacheCounts();
  const outsidePrefix = emptySccacheCounts();
  const perNode: Record<string, SccacheCounts> = {};
  for (const record of records) {
    if (record.kind !== 'hit' && record.kind !== 'miss' && record.kind !== 'write') continue;
    if (prefix !== undefined && record.keyPrefix !== prefix) {
      addSccache(outsidePrefix, record);
      continue;
    }
    addSccache(total, record);
    const node = nodeOf(record.clientAddress);
    addSccache((perNode[node] ??= emptySccacheCounts()), record);
  }
  return { prefix: prefix ?? null, total, perNode: sortKeys(perNode), outsidePrefix };
}

function emptyRegistryCounts(): RegistryCounts {
  return { bytesWritten: 0, blobsWritten: 0, manifestsWritten: 0 };
}

export function buildRegistrySummary(records: readonly RegistryRecord[]): Summary['registry'] {
  const cache = emptyRegistryCounts();
  const image = emptyRegistryCounts();
  let writesWithoutSize = 0;
  for (const record of records) {
    if (record.kind !== 'blob-write' && record.kind !== 'manifest-write') continue;
    const counts = record.isCache ? cache : image;
    if (record.kind === 'blob-write') counts.blobsWritten += 1;
    else counts.manifestsWritten += 1;
    if (record.bytes === null) writesWithoutSize += 1;
    else counts.bytesWritten += record.bytes;
  }
  return { cache, image, writesWithoutSize };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
