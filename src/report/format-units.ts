// Human units for the report text and the chart's hover. Pure. A figure that is not known (yet) reads `—`, never 0.

/** 38m52s, 1h02m03s, 7.5s. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 10) return `${Math.round(seconds * 10) / 10}s`;
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h${pad(m)}m${pad(s)}s`;
  return m > 0 ? `${m}m${pad(s)}s` : `${s}s`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** Decimal units (1 GB = 10^9 bytes), as the link_mbps figures are. */
export function formatBytes(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes)) return '—';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
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
