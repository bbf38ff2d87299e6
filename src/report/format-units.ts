// Human units for the report text and the chart's hover. Pure. A figure that is not known (yet) reads `—`, never 0.
import { formatDuration } from '../shared/format-units.js';

export function formatPct(value: number | null): string {
  return value === null || !Number.isFinite(value) ? '—' : `${Math.round(value)}%`;
}

/** The measured makespan, saying when it is not the whole run's: so far (live) or partial (interrupted, failed). */
export function formatMakespan(seconds: number | null, status: string): string {
  if (status === 'running') return `${formatDuration(seconds)} so far`;
  if (status === 'interrupted') return `${formatDuration(seconds)} (partial: the run was interrupted)`;
  if (status === 'failed') return `${formatDuration(seconds)} (partial: the run failed)`;
  return formatDuration(seconds);
}

/** Where a run landed against its band, after its percentile: far outside (past the p99 / under the p1), above the p90, or nothing. */
export function formatBandPosition(
  outside: 'above' | 'below' | null | undefined,
  percentile: number,
): string {
  if (outside === 'above') return ' ⚠ far above its band (past the p99)';
  if (outside === 'below') return ' ⚠ far below its band (under the p1)';
  return percentile > 90 ? ', above the p90' : '';
}
