// Registry records → writes split cache vs image (totals and per node), with sizes that are unknown counted apart:
// an unknown size is never added as 0.
import type { RegistryRecord } from '../types.js';

export interface RegistryWriteTotals {
  blobsWritten: number;
  manifestsWritten: number;
  /** Sum of the known sizes of the writes. */
  bytesWritten: number;
  /** Writes whose size is unknown (not in bytesWritten). */
  bytesUnknown: number;
  /** Sum of the logged durations of the writes, in ms (whole seconds on Zot ≥ 1.4.3). */
  writeDurationMs: number;
  blobsRead: number;
  manifestsRead: number;
  bytesRead: number;
}

interface RegistrySplit {
  cache: RegistryWriteTotals;
  image: RegistryWriteTotals;
}

export interface RegistrySummary extends RegistrySplit {
  requests: number;
  /** Keyed by node name, or by client address when no node is known. */
  byNode: Record<string, RegistrySplit>;
}

function createRegistryWriteTotals(): RegistryWriteTotals {
  return {
    blobsWritten: 0,
    manifestsWritten: 0,
    bytesWritten: 0,
    bytesUnknown: 0,
    writeDurationMs: 0,
    blobsRead: 0,
    manifestsRead: 0,
    bytesRead: 0,
  };
}

const createSplit = (): RegistrySplit => ({
  cache: createRegistryWriteTotals(),
  image: createRegistryWriteTotals(),
});

function addRegistryRecord(totals: RegistryWriteTotals, record: RegistryRecord): void {
  const isWrite = record.kind === 'blob-write' || record.kind === 'manifest-write';
  if (record.kind === 'blob-write') totals.blobsWritten++;
  if (record.kind === 'manifest-write') totals.manifestsWritten++;
  if (record.kind === 'blob-read') totals.blobsRead++;
  if (record.kind === 'manifest-read') totals.manifestsRead++;
  if (isWrite) {
    if (record.bytes === null) totals.bytesUnknown++;
    else totals.bytesWritten += record.bytes;
    totals.writeDurationMs += record.durationMs ?? 0;
  } else if ((record.kind === 'blob-read' || record.kind === 'manifest-read') && record.bytes !== null)
    totals.bytesRead += record.bytes;
}

export function createRegistrySummary(): RegistrySummary {
  return { requests: 0, ...createSplit(), byNode: {} };
}

/** Adds one record to a summary in place (the running aggregate of readRegistryLog and serve's live tail). */
export function addToRegistrySummary(summary: RegistrySummary, record: RegistryRecord): void {
  const node = (summary.byNode[record.node ?? record.clientAddress] ??= createSplit());
  const side = record.isCache ? 'cache' : 'image';
  summary.requests++;
  addRegistryRecord(summary[side], record);
  addRegistryRecord(node[side], record);
}

export function summarizeRegistry(records: Iterable<RegistryRecord>): RegistrySummary {
  const summary = createRegistrySummary();
  for (const record of records) addToRegistrySummary(summary, record);
  return summary;
}
