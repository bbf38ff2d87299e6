import { excludedDiskDevice, excludedNetDevice, idleModes } from '../node-exporter/compute-rates.js';

// One PromQL expression that returns every input of a sample, one series per (instance, figure): the counters'
// change over one step (`x - x offset step`, exactly the two-scrape delta compute-rates.ts takes; no rate()
// extrapolation), the gauges as they are, and whether Prometheus scraped the instance in the step at all.
// `label_replace(…, "figure", "<name>", "", "")` tags each part; `or` unions them into one answer.

export const SAMPLE_FIGURES = [
  'up',
  'cpuTotal',
  'cpuIdle',
  'cpuMin',
  'diskRead',
  'diskReadMin',
  'diskWrite',
  'diskWriteMin',
  'netRx',
  'netRxMin',
  'netTx',
  'netTxMin',
  'timeDelta',
  'bootDelta',
  'memTotal',
  'memAvailable',
  'load1',
] as const;
export type SampleFigure = (typeof SAMPLE_FIGURES)[number];

export interface BuildSamplesQueryOptions {
  /** The `instance` label values to ask for (one per node). */
  instances: readonly string[];
  /** The step (the sample interval): the counters' delta spans it. */
  stepMs: number;
}

/** A PromQL string literal: backslashes and double quotes escaped. */
function toPromString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A RE2 alternation matching exactly these strings (`a\.b|c`). @internal */
export function toExactAlternation(values: readonly string[]): string {
  return values.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

/** compute-rates.ts's device filters, as PromQL label matchers (RE2 is anchored, as the JS ones are). */
function toRegexSource(regex: RegExp): string {
  return toPromString(regex.source.replace(/^\^/, '').replace(/\$$/, ''));
}

export function buildSamplesQuery({ instances, stepMs }: BuildSamplesQueryOptions): string {
  const instanceMatcher = `instance=~${toPromString(toExactAlternation(instances))}`;
  const step = `${Math.max(1, Math.round(stepMs))}ms`;
  const select = (metric: string, extra = '') => `${metric}{${instanceMatcher}${extra}}`;
  const delta = (metric: string, extra = '') =>
    `(${select(metric, extra)} - ${select(metric, extra)} offset ${step})`;
  const disk = `,device!~${toRegexSource(excludedDiskDevice)}`;
  const net = `,device!~${toRegexSource(excludedNetDevice)}`;
  const idle = `,mode=~${toPromString([...idleModes].join('|'))}`;
  const memAvailable = `${select('node_memory_MemAvailable_bytes')} or (${select('node_memory_MemFree_bytes')} + ${select('node_memory_Buffers_bytes')} + ${select('node_memory_Cached_bytes')})`;
  const parts: Record<SampleFigure, string> = {
    up: `max by (instance) (max_over_time(${select('up')}[${step}]))`,
    cpuTotal: `sum by (instance) ${delta('node_cpu_seconds_total')}`,
    cpuIdle: `sum by (instance) ${delta('node_cpu_seconds_total', idle)}`,
    cpuMin: `min by (instance) ${delta('node_cpu_seconds_total')}`,
    diskRead: `sum by (instance) ${delta('node_disk_read_bytes_total', disk)}`,
    diskReadMin: `min by (instance) ${delta('node_disk_read_bytes_total', disk)}`,
    diskWrite: `sum by (instance) ${delta('node_disk_written_bytes_total', disk)}`,
    diskWriteMin: `min by (instance) ${delta('node_disk_written_bytes_total', disk)}`,
    netRx: `sum by (instance) ${delta('node_network_receive_bytes_total', net)}`,
    netRxMin: `min by (instance) ${delta('node_network_receive_bytes_total', net)}`,
    netTx: `sum by (instance) ${delta('node_network_transmit_bytes_total', net)}`,
    netTxMin: `min by (instance) ${delta('node_network_transmit_bytes_total', net)}`,
    timeDelta: `max by (instance) ${delta('node_time_seconds')}`,
    bootDelta: `max by (instance) (abs${delta('node_boot_time_seconds')})`,
    memTotal: `max by (instance) (${select('node_memory_MemTotal_bytes')})`,
    memAvailable: `max by (instance) (${memAvailable})`,
    load1: `max by (instance) (${select('node_load1')})`,
  };
  return SAMPLE_FIGURES.map(
    (figure) => `label_replace(${parts[figure]}, "figure", "${figure}", "", "")`,
  ).join('\nor ');
}
