// Human units for the report text and the chart's hover. Pure. A figure that is not known (yet) reads `—`, never 0.
import { formatBytesValue, formatSecondsValue } from '../shared/format-units.js';

/** 7.52s, 38m52s, 1h02m03s (the one rule: shared/format-units.ts); `—` when not known. */
export function formatDuration(seconds: number | null): string {
  return seconds === null || !Number.isFinite(seconds) ? '—' : formatSecondsValue(seconds);
}

/** 4.12 MB, 386 kB: decimal units (1 GB = 10^9 bytes), as the link_mbps figures are; `—` when not known. */
export function formatBytes(bytes: number | null): string {
  return bytes === null || !Number.isFinite(bytes) ? '—' : formatBytesValue(bytes);
}

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
