import type { MetricSample } from './build-metric-samples.js';
import { METRIC_FAMILIES, type MetricFamily } from './metric-catalog.js';

// Samples → the OpenMetrics 1.0.0 text format (https://github.com/OpenObservability/OpenMetrics, the format
// Prometheus asks for first): per family `# TYPE`, `# UNIT` when it has one, `# HELP`, then its samples, and `# EOF`
// last. Label values come from run dirs (target and node names: untrusted), so they are escaped as the format says.
// Pure.

export const OPEN_METRICS_CONTENT_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

/** Backslash, double quote and line feed escaped, as OpenMetrics label values and help text require. */
function escapeText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function renderSample(family: MetricFamily, sample: MetricSample): string {
  const labels = family.labels
    .flatMap((label) => {
      const value = sample.labels[label];
      return value === undefined ? [] : [`${label}="${escapeText(value)}"`];
    })
    .join(',');
  return `${family.name}${labels === '' ? '' : `{${labels}}`} ${String(sample.value)}`;
}

export function renderOpenMetrics(samples: readonly MetricSample[]): string {
  const lines: string[] = [];
  for (const family of METRIC_FAMILIES) {
    lines.push(`# TYPE ${family.name} gauge`);
    if (family.unit !== '') lines.push(`# UNIT ${family.name} ${family.unit}`);
    // Help text has no double quote (catalog test): OpenMetrics must escape one, the Prometheus text format
    // (promtool check metrics) must not.
    lines.push(`# HELP ${family.name} ${escapeText(family.help)}`);
    for (const sample of samples) if (sample.name === family.name) lines.push(renderSample(family, sample));
  }
  lines.push('# EOF');
  return `${lines.join('\n')}\n`;
}
