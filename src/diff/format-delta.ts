// Human units for diff and trends text. Pure. Decimal bytes (1 GB = 10^9), as the report uses.

/** 7.5s, 4m05s, 1h02m03s; `n/a` for null. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'n/a';
  if (seconds < 0) return `-${formatSeconds(-seconds)}`;
  if (seconds < 10) return `${Math.round(seconds * 10) / 10}s`;
  const total = Math.round(seconds);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number): string => String(n).padStart(2, '0');
  if (h > 0) return `${h}h${pad(m)}m${pad(s)}s`;
  return m > 0 ? `${m}m${pad(s)}s` : `${s}s`;
}

export function formatBytes(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes)) return 'n/a';
  if (bytes < 0) return `-${formatBytes(-bytes)}`;
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let [value, unit] = [bytes, 0];
  while (value >= 1000 && unit < units.length - 1) [value, unit] = [value / 1000, unit + 1];
  return unit === 0 ? `${value} B` : `${value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
}

/** `+12s (+4%)`, `-1.2 GB (-30%)`, `±0`; `n/a` when either side is unknown. */
export function formatDelta(
  { delta, pct }: { delta: number | null; pct: number | null },
  unit: 'seconds' | 'bytes',
): string {
  if (delta === null) return 'n/a';
  if (delta === 0) return '±0';
  const magnitude = unit === 'seconds' ? formatSeconds(Math.abs(delta)) : formatBytes(Math.abs(delta));
  return `${delta > 0 ? '+' : '-'}${magnitude}${pct === null ? '' : ` (${pct > 0 ? '+' : ''}${Math.round(pct)}%)`}`;
}
