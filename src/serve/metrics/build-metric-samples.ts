import type { DataFile } from '../../artifacts/index.js';
import {
  DAMAGED_PARTS,
  MAX_NODES_PER_RUN,
  MAX_TARGETS_PER_RUN,
  PREVIOUS_RUNS,
  type MetricName,
} from './metric-catalog.js';

// data.json models of the latest completed run per lane, harness and arch (and the runs before it) → the samples
// of /metrics. A figure data.json does not know (null) or marks partial (damaged input) has no sample, never a 0:
// the damaged flags say why it is missing (docs/metrics.md). Pure: the time of the scrape is a parameter.

/** The part of data.json /metrics reads. */
export type MetricModel = Pick<DataFile, 'run' | 'summary'>;

export interface MetricRunGroup {
  lane: string;
  harness: string;
  arch: string;
  latest: MetricModel;
  /** Earlier completed runs of the same lane, harness and arch, newest first. */
  previous: readonly MetricModel[];
}

export interface MetricSample {
  name: MetricName;
  labels: Readonly<Record<string, string>>;
  value: number;
}

export interface BuildMetricSamplesOptions {
  groups: readonly MetricRunGroup[];
  nowMs: number;
  unreadableRuns: number;
}

type Summary = MetricModel['summary'];

/** A fitted link rate counts only over at least this many wire-bound requests (data.json `upload.wireBound`). */
const MIN_WIRE_BOUND = 2;

/** Measured makespan, unless its traces were damaged (then it is no figure to alert on). */
function toMakespanSeconds(summary: Summary): number | null {
  return summary.partial.length > 0 ? null : summary.makespanSeconds;
}

/** Σ cached steps / Σ steps over the targets whose trace counted both and is whole; null without steps. */
function toLayerCacheHitRatio(summary: Summary): number | null {
  let cached = 0;
  let total = 0;
  for (const t of summary.targets) {
    if (t.partial.length > 0 || t.cachedSteps === null || t.totalSteps === null) continue;
    cached += t.cachedSteps;
    total += t.totalSteps;
  }
  return total > 0 ? cached / total : null;
}

/** hits / (hits + misses) under the run's prefix; null when the log saw no compile or is damaged. */
function toSccacheHitRatio(summary: Summary): number | null {
  const { hits, misses } = summary.sccache.total;
  if (summary.sccache.partial.length > 0 || hits + misses === 0) return null;
  return hits / (hits + misses);
}

function isPartial(summary: Summary, part: (typeof DAMAGED_PARTS)[number]): boolean {
  switch (part) {
    case 'makespan':
      return summary.partial.length > 0;
    case 'targets':
      return summary.targets.some((t) => t.partial.length > 0);
    case 'nodes':
      return summary.nodes.some((n) => n.partial.length > 0);
    case 'sccache':
      return summary.sccache.partial.length > 0;
    case 'registry':
      return summary.registry.partial.length > 0;
  }
}

interface Emit {
  (name: MetricName, value: number | null | undefined, extra?: Record<string, string>): void;
}

function emitRunFigures(emit: Emit, { run, summary }: MetricModel, nowMs: number): void {
  emit('rocm_perf_run_info', 1, { stamp: run.stamp });
  const makespan = toMakespanSeconds(summary);
  emit('rocm_perf_makespan_seconds', makespan);
  emit('rocm_perf_planned_makespan_seconds', summary.plannedMakespanSeconds);
  emit('rocm_perf_makespan_lower_bound_seconds', summary.lowerBoundSeconds);
  if (makespan !== null) {
    const plan = summary.plannedMakespanSeconds;
    const bound = summary.lowerBoundSeconds;
    emit('rocm_perf_makespan_gap_seconds', plan === null ? null : toMicros(makespan - plan), {
      against: 'plan',
    });
    emit('rocm_perf_makespan_gap_seconds', bound === null ? null : toMicros(makespan - bound), {
      against: 'lower_bound',
    });
  }
  const forecast = summary.partial.length > 0 ? null : summary.forecast;
  for (const [percentile, key] of [
    ['10', 'p10'],
    ['50', 'p50'],
    ['90', 'p90'],
  ] as const)
    emit('rocm_perf_forecast_makespan_seconds', forecast?.planned?.[key], { percentile });
  const landed = forecast?.banded === true ? forecast.percentile : null;
  emit('rocm_perf_forecast_landed_ratio', landed === null ? null : landed / 100);
  emit('rocm_perf_layer_cache_hit_ratio', toLayerCacheHitRatio(summary));
  emit('rocm_perf_sccache_hit_ratio', toSccacheHitRatio(summary));
  for (const part of DAMAGED_PARTS)
    emit('rocm_perf_input_damaged', isPartial(summary, part) ? 1 : 0, { part });
  emit('rocm_perf_loud_warnings', summary.warnings.filter((w) => w.level === 'loud').length);
  const finishedAtMs = run.finishedAtMs;
  emit('rocm_perf_run_finished_timestamp_seconds', finishedAtMs === null ? null : finishedAtMs / 1000);
  emit('rocm_perf_run_age_seconds', finishedAtMs === null ? null : Math.max(0, nowMs - finishedAtMs) / 1000);
}

function emitTargets(emit: Emit, summary: Summary): void {
  for (const t of summary.targets.slice(0, MAX_TARGETS_PER_RUN)) {
    if (t.partial.length > 0) continue;
    emit('rocm_perf_target_build_seconds', t.buildSeconds, { target: t.target });
    emit('rocm_perf_target_upload_seconds', t.uploadSeconds, { target: t.target });
  }
}

/** Upload figures of a node whose targets' traces are all whole. */
function emitNodes(emit: Emit, summary: Summary): void {
  for (const n of summary.nodes.slice(0, MAX_NODES_PER_RUN)) {
    const targets = summary.targets.filter((t) => t.node === n.node);
    const labels = { node: n.node };
    emit('rocm_perf_node_link_bytes_per_second', toBytesPerSecond(n.configuredLinkMbps), labels);
    if (targets.some((t) => t.partial.length > 0)) continue;
    const sized = targets.flatMap((t) => (t.uploadBytes === null ? [] : [t.uploadBytes]));
    emit('rocm_perf_node_upload_bytes', sized.length === 0 ? null : sized.reduce((a, b) => a + b, 0), labels);
    emit('rocm_perf_node_upload_throughput_bytes_per_second', toBytesPerSecond(n.measuredUploadMBps), labels);
    const fit = n.upload;
    emit(
      'rocm_perf_node_upload_rate_bytes_per_second',
      fit !== null && fit.wireBound >= MIN_WIRE_BOUND ? toBytesPerSecond(fit.rateMBps) : null,
      labels,
    );
  }
}

/** A difference of millisecond figures without its floating-point tail (3.3039999999999994 → 3.304). */
function toMicros(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}

/** MB/s (10^6 bytes, as data.json and fleet.yaml's link_mbps use it) → bytes per second. */
function toBytesPerSecond(mbps: number | null): number | null {
  return mbps === null ? null : mbps * 1e6;
}

function emitPrevious(emit: Emit, previous: readonly MetricModel[]): void {
  previous.slice(0, PREVIOUS_RUNS).forEach(({ summary }, index) => {
    const labels = { runs_ago: String(index + 1) };
    emit('rocm_perf_previous_makespan_seconds', toMakespanSeconds(summary), labels);
    emit('rocm_perf_previous_layer_cache_hit_ratio', toLayerCacheHitRatio(summary), labels);
    emit('rocm_perf_previous_sccache_hit_ratio', toSccacheHitRatio(summary), labels);
  });
}

export function buildMetricSamples({
  groups,
  nowMs,
  unreadableRuns,
}: BuildMetricSamplesOptions): MetricSample[] {
  const samples: MetricSample[] = [];
  const sorted = [...groups].sort(
    (a, b) =>
      a.lane.localeCompare(b.lane) || a.harness.localeCompare(b.harness) || a.arch.localeCompare(b.arch),
  );
  for (const group of sorted) {
    const base = { lane: group.lane, harness: group.harness, arch: group.arch };
    const emit: Emit = (name, value, extra = {}) => {
      if (value === null || value === undefined || !Number.isFinite(value)) return;
      samples.push({ name, labels: { ...base, ...extra }, value });
    };
    emitRunFigures(emit, group.latest, nowMs);
    emitPrevious(emit, group.previous);
    emitTargets(emit, group.latest.summary);
    emitNodes(emit, group.latest.summary);
  }
  samples.push({ name: 'rocm_perf_metrics_unreadable_runs', labels: {}, value: unreadableRuns });
  return samples;
}
