import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPrometheusRules } from '../../../src/contracts/check-prometheus-rules.js';
import { METRIC_FAMILIES } from '../../../src/serve/metrics/metric-catalog.js';

// The shipped rules against serve's catalog, and one-line changes of them that must fail, naming file and line.

const rulesPath = 'contrib/prometheus/rocm-perf-rules.yml';
const shipped = readFileSync(path.resolve(import.meta.dirname, '../../..', rulesPath), 'utf8');
const check = (rulesText: string) =>
  checkPrometheusRules({
    rulesText,
    rulesPath,
    families: METRIC_FAMILIES,
    catalogAt: { file: 'src/serve/metrics/metric-catalog.ts', line: undefined },
  });
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

describe('checkPrometheusRules', () => {
  it('passes the shipped rules, reading only exported series', () => {
    const result = check(shipped);
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.notes[0]).toMatch(
      /^10 rules read 10 of the \d+ series serve exports, and 4 recorded in the file$/,
    );
  });

  it.each([
    [
      'a renamed series',
      'rocm_perf_node_link_bytes_per_second',
      'rocm_perf_node_link_mbps',
      /reads `rocm_perf_node_link_mbps`, which rocm-perf serve does not export.*did you mean `rocm_perf_node_link_bytes_per_second`/,
    ],
    [
      'a series with _total',
      'rocm_perf_run_age_seconds)',
      'rocm_perf_runs_total)',
      /reads `rocm_perf_runs_total`/,
    ],
    [
      'a label the series does not carry',
      'rocm_perf_forecast_landed_ratio >= 0.99',
      'rocm_perf_forecast_landed_ratio{node="x"} >= 0.99',
      /matches `rocm_perf_forecast_landed_ratio` on label `node`/,
    ],
    [
      'a recorded name nobody records',
      'lane_harness_arch:rocm_perf_previous_makespan_seconds:count >= 3',
      'lane_harness_arch:rocm_perf_previous_makespan_seconds:total >= 3',
      /reads `lane_harness_arch:rocm_perf_previous_makespan_seconds:total`/,
    ],
  ])('fails on %s, at its line', (_case, from, to, message) => {
    const changed = shipped.replace(from, to);
    expect(changed).not.toBe(shipped);
    const result = check(changed);
    expect(result.ok).toBe(false);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.message).toMatch(message);
    expect(result.problems[0]!.producer).toEqual({ file: rulesPath, line: lineOf(changed, to) });
  });

  it('accepts job and instance matchers and the series Prometheus makes itself', () => {
    const text =
      'groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: up{job="rocm-perf"} == 0 or ALERTS{alertname="x"} or rocm_perf_makespan_seconds{instance="h:1",lane="fleet"} > 1\n';
    expect(check(text).problems).toEqual([]);
  });

  it('fails a file that is not a rule file, at line 1', () => {
    const result = check('groups:\n  - rules: 3\n');
    expect(result.ok).toBe(false);
    expect(result.problems[0]!.message).toMatch(/not a Prometheus rule file: groups\.0\.name/);
    expect(result.problems[0]!.producer.line).toBe(1);
  });
});
