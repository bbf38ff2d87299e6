import { describe, expect, it } from 'vitest';
import { renderOpenMetrics } from '../../../../src/serve/metrics/render-open-metrics.js';
import { METRIC_FAMILIES } from '../../../../src/serve/metrics/metric-catalog.js';

describe('renderOpenMetrics', () => {
  it('writes TYPE, UNIT and HELP per family, its samples with labels in catalog order, and # EOF last', () => {
    const text = renderOpenMetrics([
      {
        name: 'rocm_perf_makespan_seconds',
        labels: { arch: 'gfx1201', lane: 'fleet', harness: 'warm' },
        value: 10.5,
      },
      { name: 'rocm_perf_metrics_unreadable_runs', labels: {}, value: 0 },
    ]);
    expect(text).toContain(
      [
        '# TYPE rocm_perf_makespan_seconds gauge',
        '# UNIT rocm_perf_makespan_seconds seconds',
        '# HELP rocm_perf_makespan_seconds Measured makespan: first target start to last target end.',
        'rocm_perf_makespan_seconds{lane="fleet",harness="warm",arch="gfx1201"} 10.5',
        '',
      ].join('\n'),
    );
    expect(text).toContain('\nrocm_perf_metrics_unreadable_runs 0\n');
    expect(text.endsWith('\n# EOF\n')).toBe(true);
    expect(text.match(/^# TYPE /gm)).toHaveLength(METRIC_FAMILIES.length);
  });

  it('escapes backslash, double quote and line feed in label values (names come from run dirs)', () => {
    const text = renderOpenMetrics([
      {
        name: 'rocm_perf_target_build_seconds',
        labels: { lane: 'fleet', harness: 'warm', arch: 'x', target: 'a"b\\c\nd} 1' },
        value: 2,
      },
    ]);
    expect(text).toContain(
      'rocm_perf_target_build_seconds{lane="fleet",harness="warm",arch="x",target="a\\"b\\\\c\\nd} 1"} 2\n',
    );
  });
});

describe('the metric catalog', () => {
  it.each(METRIC_FAMILIES.map((f) => [f.name, f]))('%s follows the naming conventions', (_name, family) => {
    expect(family.name).toMatch(/^rocm_perf_[a-z_]+$/);
    // Units in names; all are gauges, so none ends in _total (kept for counters).
    if (family.unit !== '') expect(family.name.endsWith(`_${family.unit}`)).toBe(true);
    expect(family.name).not.toMatch(/_total$|_count$|_sum$|_bucket$/);
    // A double quote must be escaped in OpenMetrics help and may not be in the Prometheus text format.
    expect(family.help).not.toMatch(/["\\\n]/);
    expect(new Set(family.labels).size).toBe(family.labels.length);
  });
});
