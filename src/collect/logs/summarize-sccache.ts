// sccache records → totals, per node, per key prefix, and the live vs this run's prefix split.
import type { SccacheRecord } from '../types.js';

export interface SccacheTotals {
  requests: number;
  hits: number;
  misses: number;
  writes: number;
  overhead: number;
  other: number;
  /** Writes whose size is unknown (no Content-Length): their bytes are not in bytesWritten. */
  bytesUnknown: number;
  bytesRead: number;
  bytesWritten: number;
}

export interface SccacheSummary {
  totals: SccacheTotals;
  /** Keyed by node name, or by client address when no node is known. */
  byNode: Record<string, SccacheTotals>;
  /** Keyed by key prefix; requests without one (directory PROPFINDs, stray paths) under `(none)`. */
  byPrefix: Record<string, SccacheTotals>;
  /** Requests under the fleet's live prefix. */
  live: SccacheTotals;
  /** Requests under this run's own prefix (a cold run), when given. */
  run: SccacheTotals | undefined;
  /** The same per node (or client address), when a run prefix is given. */
  runByNode: Record<string, SccacheTotals> | undefined;
}

export interface SummarizeSccacheOptions {
  livePrefix: string;
  runPrefix?: string | undefined;
}

function createSccacheTotals(): SccacheTotals {
  return {
    requests: 0,
    hits: 0,
    misses: 0,
    writes: 0,
    overhead: 0,
    other: 0,
    bytesUnknown: 0,
    bytesRead: 0,
    bytesWritten: 0,
  };
}

function addSccacheRecord(totals: SccacheTotals, record: SccacheRecord): void {
  totals.requests++;
  switch (record.kind) {
    case 'hit':
      totals.hits++;
      totals.bytesRead += record.bytes;
      break;
    case 'miss':
      totals.misses++;
      break;
    case 'write':
      totals.writes++;
      totals.bytesWritten += record.bytes;
      if (record.bytesUnknown === true) totals.bytesUnknown++;
      break;
    case 'overhead':
      totals.overhead++;
      break;
    case 'other':
      totals.other++;
      break;
  }
}

/** `/a/b/` → `a/b`. */
const trimSlashes = (prefix: string) => prefix.replace(/^\/+|\/+$/g, '');

export function createSccacheSummary(options: SummarizeSccacheOptions): SccacheSummary {
  return {
    totals: createSccacheTotals(),
    byNode: {},
    byPrefix: {},
    live: createSccacheTotals(),
    run: options.runPrefix === undefined ? undefined : createSccacheTotals(),
    runByNode: options.runPrefix === undefined ? undefined : {},
  };
}

/** Adds one record to a summary in place (the running aggregate of readSccacheLog and serve's live tail). */
export function addToSccacheSummary(
  summary: SccacheSummary,
  record: SccacheRecord,
  options: SummarizeSccacheOptions,
): void {
  const prefix = record.keyPrefix === undefined ? undefined : trimSlashes(record.keyPrefix);
  const node = record.node ?? record.clientAddress;
  addSccacheRecord(summary.totals, record);
  addSccacheRecord((summary.byNode[node] ??= createSccacheTotals()), record);
  addSccacheRecord((summary.byPrefix[prefix ?? '(none)'] ??= createSccacheTotals()), record);
  if (prefix === trimSlashes(options.livePrefix)) addSccacheRecord(summary.live, record);
  if (options.runPrefix === undefined || prefix !== trimSlashes(options.runPrefix)) return;
  if (summary.run !== undefined) addSccacheRecord(summary.run, record);
  if (summary.runByNode !== undefined)
    addSccacheRecord((summary.runByNode[node] ??= createSccacheTotals()), record);
}
