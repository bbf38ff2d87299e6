import type { Sample } from './samples.js';

// samples.jsonl as the report holds it: per node, columns of what it draws and sums (time, CPU busy, memory used,
// and which scrape failed with what). About 28 bytes a sample instead of a parsed object's ~1 KB, so a 6-hour run of
// 24 nodes at 1 Hz (518,400 samples) is 15 MB, and serve's live reader can keep a whole run as it grows. The other
// figures of a line (disk, network, load) stay in samples.jsonl; no view reads them from the table.

export interface NodeSamples {
  readonly node: string;
  /** Samples held; the columns' capacity may be larger, so read indices below `length` only. */
  length: number;
  tsMs: Float64Array;
  /** NaN where the sample has no figure (a failed scrape, the first scrape of a node, a counter reset). */
  cpuBusyPct: Float64Array;
  memUsedPct: Float64Array;
  /** -1 for a good scrape; else the index of its error in the table's `errors`. */
  errorId: Int32Array;
  /** The largest MemTotal its samples gave (bytes); NaN when none did. */
  memTotalBytes: number;
  /** Whether tsMs never decreased so far (sortSampleTable sorts only the nodes where it did). */
  inOrder: boolean;
}

/** The views read each node's columns in time order: the readers and createSampleTable sort before they return. */
export interface SampleTable {
  /** In the order nodes were first seen. */
  nodes: Map<string, NodeSamples>;
  /** Distinct scrape errors; a failed scrape refers to one by index. */
  errors: string[];
  errorIds: Map<string, number>;
  size: number;
}

const initialCapacity = 256;

export function createSampleTable(samples: Iterable<Sample> = []): SampleTable {
  const table: SampleTable = { nodes: new Map(), errors: [], errorIds: new Map(), size: 0 };
  for (const sample of samples) addSample(table, sample);
  sortSampleTable(table);
  return table;
}

function createNodeSamples(node: string): NodeSamples {
  return {
    node,
    length: 0,
    tsMs: new Float64Array(initialCapacity),
    cpuBusyPct: new Float64Array(initialCapacity),
    memUsedPct: new Float64Array(initialCapacity),
    errorId: new Int32Array(initialCapacity),
    memTotalBytes: Number.NaN,
    inOrder: true,
  };
}

function grow<T extends Float64Array | Int32Array>(column: T, capacity: number): T {
  const next = new (column.constructor as new (length: number) => T)(capacity);
  next.set(column);
  return next;
}

function ensureCapacity(columns: NodeSamples): void {
  if (columns.length < columns.tsMs.length) return;
  const capacity = columns.tsMs.length * 2;
  columns.tsMs = grow(columns.tsMs, capacity);
  columns.cpuBusyPct = grow(columns.cpuBusyPct, capacity);
  columns.memUsedPct = grow(columns.memUsedPct, capacity);
  columns.errorId = grow(columns.errorId, capacity);
}

function toErrorId(table: SampleTable, error: string): number {
  let id = table.errorIds.get(error);
  if (id === undefined) {
    id = table.errors.length;
    table.errors.push(error);
    table.errorIds.set(error, id);
  }
  return id;
}

export function addSample(table: SampleTable, sample: Sample): void {
  let columns = table.nodes.get(sample.node);
  if (columns === undefined) {
    columns = createNodeSamples(sample.node);
    table.nodes.set(sample.node, columns);
  }
  ensureCapacity(columns);
  const i = columns.length;
  if (i > 0 && sample.tsMs < columns.tsMs[i - 1]!) columns.inOrder = false;
  columns.tsMs[i] = sample.tsMs;
  columns.cpuBusyPct[i] = sample.ok ? (sample.cpuBusyPct ?? Number.NaN) : Number.NaN;
  columns.memUsedPct[i] = sample.ok ? (sample.memUsedPct ?? Number.NaN) : Number.NaN;
  columns.errorId[i] = sample.ok ? -1 : toErrorId(table, sample.error);
  if (sample.ok && sample.memTotalBytes !== undefined)
    columns.memTotalBytes = Number.isNaN(columns.memTotalBytes)
      ? sample.memTotalBytes
      : Math.max(columns.memTotalBytes, sample.memTotalBytes);
  columns.length = i + 1;
  table.size += 1;
}

/** Puts each node's samples in time order (stable: equal times keep the order they were read in). */
export function sortSampleTable(table: SampleTable): void {
  for (const columns of table.nodes.values()) {
    if (columns.inOrder) continue;
    const order = Array.from({ length: columns.length }, (_, i) => i).sort(
      (a, b) => columns.tsMs[a]! - columns.tsMs[b]! || a - b,
    );
    const pick = <T extends Float64Array | Int32Array>(column: T): T => {
      const next = new (column.constructor as new (length: number) => T)(column.length);
      order.forEach((from, to) => (next[to] = column[from]!));
      return next;
    };
    columns.tsMs = pick(columns.tsMs);
    columns.cpuBusyPct = pick(columns.cpuBusyPct);
    columns.memUsedPct = pick(columns.memUsedPct);
    columns.errorId = pick(columns.errorId);
    columns.inOrder = true;
  }
}
