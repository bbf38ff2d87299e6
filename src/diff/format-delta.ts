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

/** Seconds with two decimals below ten minutes (`54.30s`), for figures compared to a hundredth. */
export function formatPreciseSeconds(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'n/a';
  return Math.abs(seconds) < 600 ? `${seconds.toFixed(2)}s` : formatSeconds(seconds);
}

/** A share of a change: `+9m12s`, `-42s`, `+2.59s`, `+0.35s`, `+0.004s`; `±0` for 0. `precise`: 2 decimals below 10 minutes. */
export function formatSignedSeconds(
  seconds: number,
  { precise = false }: { precise?: boolean } = {},
): string {
  if (seconds === 0) return '±0';
  const sign = seconds > 0 ? '+' : '-';
  const magnitude = Math.abs(seconds);
  if (magnitude < 0.1) return `${sign}${magnitude.toFixed(3)}s`;
  if (magnitude < 10 || (precise && magnitude < 600)) return `${sign}${magnitude.toFixed(2)}s`;
  return `${sign}${formatSeconds(magnitude)}`;
}

/** Bytes per second as MB/s with two significant decimals below 10: `0.21`, `4.5`, `118`; `n/a` for null. */
export function formatMegabytesPerSecond(bytesPerSecond: number | null): string {
  if (bytesPerSecond === null || !Number.isFinite(bytesPerSecond)) return 'n/a';
  const mb = bytesPerSecond / 1e6;
  return mb >= 100 ? mb.toFixed(0) : mb >= 10 ? mb.toFixed(1) : mb >= 0.1 ? mb.toFixed(2) : mb.toPrecision(2);
}

/** `+31 %`, `-4 %`; `n/a` for null. */
export function formatPercent(pct: number | null): string {
  if (pct === null) return 'n/a';
  const rounded = Math.round(pct);
  return `${rounded > 0 ? '+' : rounded < 0 ? '-' : '±'}${Math.abs(rounded)} %`;
}
