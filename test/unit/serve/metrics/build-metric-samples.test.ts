import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFileSchema, type DataFile } from '../../../../src/artifacts/index.js';
import {
  buildMetricSamples,
  type MetricRunGroup,
  type MetricSample,
} from '../../../../src/serve/metrics/build-metric-samples.js';

// The real warm box run's data.json (fixtures/runs/gfx1201-warm, recorded on the fleet in a box) as /metrics input;
// expected figures are written out from that file, and the damaged cases are the same model with one part marked
// partial, as the run checks mark it.

const warm = DataFileSchema.parse(
  JSON.parse(
    readFileSync(
      path.resolve(import.meta.dirname, '../../../../fixtures/runs/gfx1201-warm/data.json'),
      'utf8',
    ),
  ),
);
const NOW_MS = warm.run.finishedAtMs! + 90_000;
const base = { lane: 'fleet', harness: 'warm', arch: 'gfx1201' };

function build(groups: MetricRunGroup[]): MetricSample[] {
  return buildMetricSamples({ groups, nowMs: NOW_MS, unreadableRuns: 0 });
}
const group = (latest: DataFile, previous: DataFile[] = []): MetricRunGroup => ({
  ...base,
  latest,
  previous,
});
const value = (samples: MetricSample[], name: string, labels: Record<string, string> = {}) =>
  samples.find(
    (s) => s.name === name && Object.entries({ ...base, ...labels }).every(([k, v]) => s.labels[k] === v),
  )?.value;
const withSummary = (patch: Partial<DataFile['summary']>): DataFile => ({
  ...warm,
  summary: { ...warm.summary, ...patch },
});

describe('buildMetricSamples', () => {
  const samples = build([group(warm)]);

  it('exports the run figures of data.json, in base units', () => {
    expect(value(samples, 'rocm_perf_run_info', { stamp: '20261206T220306Z-t4kou9' })).toBe(1);
    expect(value(samples, 'rocm_perf_makespan_seconds')).toBe(10.121);
    expect(value(samples, 'rocm_perf_planned_makespan_seconds')).toBe(7.444);
    expect(value(samples, 'rocm_perf_makespan_lower_bound_seconds')).toBe(6.971);
    expect(value(samples, 'rocm_perf_makespan_gap_seconds', { against: 'plan' })).toBe(2.677);
    expect(value(samples, 'rocm_perf_makespan_gap_seconds', { against: 'lower_bound' })).toBe(3.15);
    expect(value(samples, 'rocm_perf_forecast_makespan_seconds', { percentile: '90' })).toBe(9.178);
    expect(value(samples, 'rocm_perf_forecast_landed_ratio')).toBeCloseTo(0.971, 9);
    expect(value(samples, 'rocm_perf_sccache_hit_ratio')).toBe(1);
    expect(value(samples, 'rocm_perf_run_age_seconds')).toBe(90);
    expect(value(samples, 'rocm_perf_node_link_bytes_per_second', { node: 'kiln' })).toBe(215_000);
    expect(value(samples, 'rocm_perf_node_upload_throughput_bytes_per_second', { node: 'kiln' })).toBeCloseTo(
      140_800,
      6,
    );
    // Fitted over 8 wire-bound requests: exported; anvil's fit had none, so its rate is not known.
    expect(value(samples, 'rocm_perf_node_upload_rate_bytes_per_second', { node: 'kiln' })).toBeCloseTo(
      236_900,
      6,
    );
    expect(value(samples, 'rocm_perf_node_upload_rate_bytes_per_second', { node: 'anvil' })).toBeUndefined();
    expect(value(samples, 'rocm_perf_target_build_seconds', { target: 'aiter-wheel' })).toBe(1.015);
  });

  it('sums the layer cache steps over targets, and a node’s upload bytes over its targets', () => {
    const steps = warm.summary.targets.reduce((sum, t) => sum + t.totalSteps!, 0);
    const cached = warm.summary.targets.reduce((sum, t) => sum + t.cachedSteps!, 0);
    expect(value(samples, 'rocm_perf_layer_cache_hit_ratio')).toBe(cached / steps);
    const kiln = warm.summary.targets.filter((t) => t.node === 'kiln').map((t) => t.uploadBytes!);
    expect(value(samples, 'rocm_perf_node_upload_bytes', { node: 'kiln' })).toBe(
      kiln.reduce((a, b) => a + b, 0),
    );
  });

  it('never exports a figure as 0 when it is unknown: no compile traffic, no forecast band, no finish time', () => {
    const unknown = {
      ...warm,
      run: { ...warm.run, finishedAtMs: null },
      summary: {
        ...warm.summary,
        sccache: { ...warm.summary.sccache, total: { ...warm.summary.sccache.total, hits: 0, misses: 0 } },
        forecast: null,
      },
    };
    const got = build([group(unknown)]);
    for (const name of [
      'rocm_perf_sccache_hit_ratio',
      'rocm_perf_forecast_makespan_seconds',
      'rocm_perf_forecast_landed_ratio',
      'rocm_perf_run_age_seconds',
      'rocm_perf_run_finished_timestamp_seconds',
    ])
      expect(
        got.filter((s) => s.name === name),
        name,
      ).toEqual([]);
  });

  it('leaves out what damaged input made partial and raises that part’s flag', () => {
    const flags = (s: MetricSample[]): Record<string, number> =>
      Object.fromEntries(
        s.filter((x) => x.name === 'rocm_perf_input_damaged').map((x) => [x.labels.part ?? '', x.value]),
      );
    expect(flags(samples)).toEqual({ makespan: 0, targets: 0, nodes: 0, sccache: 0, registry: 0 });
    const makespan = build([group(withSummary({ partial: ['trace-pytorch.json'] }))]);
    expect(value(makespan, 'rocm_perf_makespan_seconds')).toBeUndefined();
    expect(value(makespan, 'rocm_perf_forecast_landed_ratio')).toBeUndefined();
    expect(flags(makespan)).toMatchObject({ makespan: 1 });
    const [first, ...rest] = warm.summary.targets;
    const target = build([
      group(withSummary({ targets: [{ ...first!, partial: ['trace-aiter-wheel.json'] }, ...rest] })),
    ]);
    expect(value(target, 'rocm_perf_target_build_seconds', { target: first!.target })).toBeUndefined();
    expect(value(target, 'rocm_perf_node_upload_bytes', { node: first!.node })).toBeUndefined();
    expect(value(target, 'rocm_perf_target_build_seconds', { target: rest[0]!.target })).toBe(
      rest[0]!.buildSeconds,
    );
    expect(flags(target)).toMatchObject({ targets: 1, makespan: 0 });
    const sccache = build([
      group(withSummary({ sccache: { ...warm.summary.sccache, partial: ['sccache.log'] } })),
    ]);
    expect(value(sccache, 'rocm_perf_sccache_hit_ratio')).toBeUndefined();
    expect(flags(sccache)).toMatchObject({ sccache: 1 });
  });

  it('always says how many run dirs it could not read', () => {
    expect(buildMetricSamples({ groups: [], nowMs: NOW_MS, unreadableRuns: 2 })).toEqual([
      { name: 'rocm_perf_metrics_unreadable_runs', labels: {}, value: 2 },
    ]);
  });

  it('counts loud warnings only', () => {
    const loud = withSummary({
      warnings: [...warm.summary.warnings, { level: 'loud', stream: null, message: 'x' }],
    });
    expect(value(build([group(loud)]), 'rocm_perf_loud_warnings')).toBe(1);
    expect(value(samples, 'rocm_perf_loud_warnings')).toBe(0);
  });

  it('numbers the previous runs 1… and keeps at most 5', () => {
    const previous = [20, 21, 22, 23, 24, 25].map((s) => withSummary({ makespanSeconds: s }));
    const got = build([group(warm, previous)]).filter(
      (s) => s.name === 'rocm_perf_previous_makespan_seconds',
    );
    expect(got.map((s) => [s.labels.runs_ago, s.value])).toEqual([
      ['1', 20],
      ['2', 21],
      ['3', 22],
      ['4', 23],
      ['5', 24],
    ]);
  });

  it('caps the targets a run exports at 500', () => {
    const many = withSummary({
      targets: Array.from({ length: 600 }, (_, i) => ({ ...warm.summary.targets[0]!, target: `t${i}` })),
    });
    expect(build([group(many)]).filter((s) => s.name === 'rocm_perf_target_build_seconds')).toHaveLength(500);
  });
});
