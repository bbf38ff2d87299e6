// Every metric family `serve` exports on /metrics: its name, OpenMetrics unit, help and labels. One table, read by
// the builder (build-metric-samples.ts), the renderer, `rocm-perf contracts` (the shipped alert rules may name only
// these) and the docs test (docs/metrics.md lists each). All are gauges: every figure is a property of one run, none
// counts up. Pure.

/** The labels of every per-run family: which lane, harness and arch the latest completed run is the latest of. */
const RUN_LABELS = ['lane', 'harness', 'arch'] as const;

type MetricUnit = 'seconds' | 'bytes' | 'ratio' | 'bytes_per_second' | '';

export interface MetricFamily {
  name: string;
  /** OpenMetrics `# UNIT`; the name ends with it (Prometheus naming: units in names). */
  unit: MetricUnit;
  help: string;
  /** Every label its samples carry, in exposition order. */
  labels: readonly string[];
}

/** How many earlier completed runs per lane, harness and arch the `rocm_perf_previous_*` families carry. */
export const PREVIOUS_RUNS = 5;

/** At most this many targets and nodes per run are exported (a hostile data.json cannot blow up the exposition). */
export const MAX_TARGETS_PER_RUN = 500;
export const MAX_NODES_PER_RUN = 100;

/** The parts of a run whose damaged input leaves figures partial (data.json `partial`), one flag each. */
export const DAMAGED_PARTS = ['makespan', 'targets', 'nodes', 'sccache', 'registry'] as const;

const family = (
  name: string,
  unit: MetricUnit,
  help: string,
  extra: readonly string[] = [],
): MetricFamily => ({ name, unit, help, labels: [...RUN_LABELS, ...extra] });

export const METRIC_FAMILIES = [
  family(
    'rocm_perf_run_info',
    '',
    'The latest completed run of this lane, harness and arch (value 1): the stamp its figures come from.',
    ['stamp'],
  ),
  family(
    'rocm_perf_makespan_seconds',
    'seconds',
    'Measured makespan: first target start to last target end.',
  ),
  family('rocm_perf_planned_makespan_seconds', 'seconds', 'Makespan the plan predicted (plan.json).'),
  family(
    'rocm_perf_makespan_lower_bound_seconds',
    'seconds',
    'Lower bound of the makespan: no placement of these targets on this fleet beats it.',
  ),
  family(
    'rocm_perf_makespan_gap_seconds',
    'seconds',
    'Measured makespan minus the planned makespan (against plan) or the lower bound (against lower_bound).',
    ['against'],
  ),
  family(
    'rocm_perf_previous_makespan_seconds',
    'seconds',
    'Measured makespan of an earlier completed run of this lane, harness and arch; runs_ago 1 is the one before the latest.',
    ['runs_ago'],
  ),
  family(
    'rocm_perf_forecast_makespan_seconds',
    'seconds',
    "The plan's makespan forecast at percentile 10, 50 and 90.",
    ['percentile'],
  ),
  family(
    'rocm_perf_forecast_landed_ratio',
    'ratio',
    'Where the measured makespan landed in its forecast, 0 to 1 (data.json percentile / 100).',
  ),
  family(
    'rocm_perf_layer_cache_hit_ratio',
    'ratio',
    'Cached build steps / all build steps over the targets whose trace counted them.',
  ),
  family(
    'rocm_perf_previous_layer_cache_hit_ratio',
    'ratio',
    'rocm_perf_layer_cache_hit_ratio of an earlier completed run; runs_ago as for the makespan.',
    ['runs_ago'],
  ),
  family(
    'rocm_perf_sccache_hit_ratio',
    'ratio',
    "sccache hits / (hits + misses) under the run's key prefix; absent when the log saw no compile.",
  ),
  family(
    'rocm_perf_previous_sccache_hit_ratio',
    'ratio',
    'rocm_perf_sccache_hit_ratio of an earlier completed run; runs_ago as for the makespan.',
    ['runs_ago'],
  ),
  family('rocm_perf_node_upload_bytes', 'bytes', "Bytes the node's targets uploaded (sized uploads).", [
    'node',
  ]),
  family(
    'rocm_perf_node_upload_throughput_bytes_per_second',
    'bytes_per_second',
    "The node's measured effective upload throughput: uploaded bytes / the union of its upload spans.",
    ['node'],
  ),
  family(
    'rocm_perf_node_upload_rate_bytes_per_second',
    'bytes_per_second',
    "The node's link rate fitted from its upload requests (latency + bytes / rate), only when at least 2 were wire-bound.",
    ['node'],
  ),
  family(
    'rocm_perf_node_link_bytes_per_second',
    'bytes_per_second',
    "The node's configured link: fleet.yaml link_mbps (MB/s) x 10^6, as run.json recorded it.",
    ['node'],
  ),
  family('rocm_perf_target_build_seconds', 'seconds', "Span of the target's own build steps.", ['target']),
  family('rocm_perf_target_upload_seconds', 'seconds', "Union of the target's registry upload spans.", [
    'target',
  ]),
  family(
    'rocm_perf_input_damaged',
    '',
    '1 when damaged input (a cut, short or changed file) left this part of the run partial, else 0.',
    ['part'],
  ),
  family(
    'rocm_perf_loud_warnings',
    '',
    'Warnings of the run that say a number may be a silent 0 (data.json level loud).',
  ),
  family('rocm_perf_run_finished_timestamp_seconds', 'seconds', 'When the run finished, Unix seconds.'),
  family('rocm_perf_run_age_seconds', 'seconds', 'Seconds since the run finished, at the scrape.'),
  {
    name: 'rocm_perf_metrics_unreadable_runs',
    unit: '',
    help: 'Run dirs serve skipped for /metrics because their run.json or report could not be read (the serve log says why).',
    labels: [],
  },
] as const satisfies readonly MetricFamily[];

export type MetricName = (typeof METRIC_FAMILIES)[number]['name'];
