import { type Sample, SAMPLES_VERSION } from '../../artifacts/index.js';
import type { MetricFamily, MetricSample } from './parse-metrics.js';

// Per node and interval: utilisation from two node_exporter scrapes. Decisions (see
// docs/collectors-metrics-and-traces.md): CPU idle = idle + iowait; Δt from node_time_seconds when both
// scrapes carry it; a counter that goes backwards, or a changed boot time, nulls that figure for the interval.

type MetricFamilies = ReadonlyMap<string, MetricFamily>;

export interface ScrapeSnapshot {
  /** When the scrape was taken, by the sampler's clock. */
  tsMs: number;
  families: MetricFamilies;
}

export interface ComputeSampleOptions {
  node: string;
  previous: ScrapeSnapshot | undefined;
  current: MetricFamilies;
  /** The current scrape's time; it stamps the sample. */
  tsMs: number;
}

export const idleModes: ReadonlySet<string> = new Set(['idle', 'iowait']);
export const excludedNetDevice = /^(lo|veth.*|docker0|br-.*)$/;
// Partitions, stacked (dm-*, md*) and virtual (loop, ram, zram, nbd, sr, fd) block devices double-count
// or do not reach a disk; the physical devices remain.
export const excludedDiskDevice =
  /^(dm-\d+|md\d+|loop\d+|z?ram\d+|nbd\d+|sr\d+|fd\d+|(?:[shv]|xv)d[a-z]+\d+|nvme\d+n\d+p\d+|mmcblk\d+p\d+)$/;

export function computeSample({ node, previous, current, tsMs }: ComputeSampleOptions): Sample {
  const rates = previous === undefined ? undefined : computeRates(previous, current, tsMs);
  return {
    version: SAMPLES_VERSION,
    node,
    tsMs,
    ok: true,
    cpuBusyPct: rates?.cpuBusyPct ?? null,
    memUsedPct: toMemUsedPct(current),
    diskReadBps: rates?.diskReadBps ?? null,
    diskWriteBps: rates?.diskWriteBps ?? null,
    netRxBps: rates?.netRxBps ?? null,
    netTxBps: rates?.netTxBps ?? null,
    load1: firstValue(current, 'node_load1') ?? null,
    ...toMemTotal(firstValue(current, 'node_memory_MemTotal_bytes')),
  };
}

/** MemTotal when the node gave one (the step-usage flags' node memory without fleet.yaml memory_gb). */
export const toMemTotal = (bytes: number | undefined): { memTotalBytes?: number } =>
  bytes !== undefined && bytes > 0 ? { memTotalBytes: bytes } : {};

interface Rates {
  cpuBusyPct: number | null;
  diskReadBps: number | null;
  diskWriteBps: number | null;
  netRxBps: number | null;
  netTxBps: number | null;
}

function computeRates(previous: ScrapeSnapshot, current: MetricFamilies, tsMs: number): Rates | undefined {
  const bootBefore = firstValue(previous.families, 'node_boot_time_seconds');
  const bootAfter = firstValue(current, 'node_boot_time_seconds');
  if (bootBefore !== undefined && bootAfter !== undefined && Math.abs(bootAfter - bootBefore) > 1)
    return undefined;
  const seconds = toIntervalSeconds(previous, current, tsMs);
  const perSecond = (family: string, excluded: RegExp): number | null => {
    if (seconds === undefined) return null;
    const delta = sumDeltas(
      previous.families.get(family),
      current.get(family),
      (labels) => !excluded.test(labels.device ?? ''),
    );
    return delta === undefined ? null : delta / seconds;
  };
  return {
    // A ratio of summed deltas: needs no interval, and scrape-timing jitter cancels out.
    cpuBusyPct: toCpuBusyPct(previous.families, current),
    diskReadBps: perSecond('node_disk_read_bytes_total', excludedDiskDevice),
    diskWriteBps: perSecond('node_disk_written_bytes_total', excludedDiskDevice),
    netRxBps: perSecond('node_network_receive_bytes_total', excludedNetDevice),
    netTxBps: perSecond('node_network_transmit_bytes_total', excludedNetDevice),
  };
}

/** Δt on the node's own clock (node_time_seconds) when both scrapes have it, else the sampler's. */
function toIntervalSeconds(
  previous: ScrapeSnapshot,
  current: MetricFamilies,
  tsMs: number,
): number | undefined {
  const before = firstValue(previous.families, 'node_time_seconds');
  const after = firstValue(current, 'node_time_seconds');
  const nodeSeconds = before !== undefined && after !== undefined ? after - before : undefined;
  const seconds = nodeSeconds !== undefined && nodeSeconds > 0 ? nodeSeconds : (tsMs - previous.tsMs) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

function toCpuBusyPct(previous: MetricFamilies, current: MetricFamilies): number | null {
  const family = 'node_cpu_seconds_total';
  const total = sumDeltas(previous.get(family), current.get(family), () => true);
  const idle = sumDeltas(previous.get(family), current.get(family), (labels) =>
    idleModes.has(labels.mode ?? ''),
  );
  if (total === undefined || idle === undefined || total <= 0) return null;
  return clampPct((100 * (total - idle)) / total);
}

/** Σ (current − previous) over series present in both; undefined if any counter went backwards or none match. */
function sumDeltas(
  before: MetricFamily | undefined,
  after: MetricFamily | undefined,
  include: (labels: Record<string, string>) => boolean,
): number | undefined {
  if (before === undefined || after === undefined) return undefined;
  const previousByKey = new Map<string, number>();
  for (const sample of before.samples)
    if (include(sample.labels)) previousByKey.set(toSeriesKey(sample), sample.value);
  let sum = 0;
  let matched = 0;
  for (const sample of after.samples) {
    if (!include(sample.labels)) continue;
    const old = previousByKey.get(toSeriesKey(sample));
    if (old === undefined || !Number.isFinite(old) || !Number.isFinite(sample.value)) continue;
    if (sample.value < old) return undefined;
    sum += sample.value - old;
    matched += 1;
  }
  return matched === 0 ? undefined : sum;
}

function toSeriesKey(sample: MetricSample): string {
  const parts: string[] = [];
  for (const key in sample.labels) parts.push(`${key}=${sample.labels[key]}`);
  return parts.sort().join('\u0000');
}

function toMemUsedPct(families: MetricFamilies): number | null {
  const total = firstValue(families, 'node_memory_MemTotal_bytes');
  if (total === undefined || !(total > 0)) return null;
  let available = firstValue(families, 'node_memory_MemAvailable_bytes');
  if (available === undefined) {
    const parts = ['MemFree', 'Buffers', 'Cached'].map((field) =>
      firstValue(families, `node_memory_${field}_bytes`),
    );
    if (parts.some((part) => part === undefined)) return null;
    available = parts.reduce<number>((sum, part) => sum + (part ?? 0), 0);
  }
  return clampPct(100 * (1 - available / total));
}

function firstValue(families: MetricFamilies, name: string): number | undefined {
  const value = families.get(name)?.samples[0]?.value;
  return value === undefined || Number.isNaN(value) ? undefined : value;
}

function clampPct(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  return Math.min(100, Math.max(0, value));
}
