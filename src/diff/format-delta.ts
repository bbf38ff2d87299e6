// Human units for diff and trends text. Pure. Decimal bytes (1 GB = 10^9), as the report uses.
import {
  formatBytes,
  formatDuration,
  formatSignedSecondsValue,
  toShownDifference,
} from '../shared/format-units.js';

/** How diff and trends text shows a figure that is not known: `n/a`, as it always has (the report shows `—`). */
export const NOT_KNOWN = 'n/a';

/**
 * `+12.00s (+4%)`, `-1.20 GB (-30%)`, `±0`; `n/a` when either side is unknown. A change of seconds is B − A as
 * shown, so `A → B (Δ)` adds up to the digit.
 */
export function formatDelta(
  {
    a,
    b,
    delta: raw,
    pct,
  }: { a?: number | null; b?: number | null; delta: number | null; pct: number | null },
  unit: 'seconds' | 'bytes',
): string {
  const delta =
    unit === 'seconds' && raw !== null && typeof a === 'number' && typeof b === 'number'
      ? toShownDifference(b, a)
      : raw;
  if (delta === null) return 'n/a';
  if (delta === 0) return '±0';
  const magnitude = unit === 'seconds' ? formatDuration(Math.abs(delta)) : formatBytes(Math.abs(delta));
  return `${delta > 0 ? '+' : '-'}${magnitude}${pct === null ? '' : ` (${pct > 0 ? '+' : ''}${Math.round(pct)}%)`}`;
}

/** Seconds with two decimals below ten minutes (`54.30s`), for figures compared to a hundredth. */
export function formatPreciseSeconds(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'n/a';
  return Math.abs(seconds) < 600 ? `${seconds.toFixed(2)}s` : formatDuration(seconds);
}

/** A share of a change: `+9m12s`, `-42.10s`, `+2.59s`, `+0.004s`; `±0` for 0. `precise`: 2 decimals below 10 minutes. */
export function formatSignedSeconds(
  seconds: number,
  { precise = false }: { precise?: boolean } = {},
): string {
  const magnitude = Math.abs(seconds);
  if (precise && magnitude >= 0.1 && magnitude < 600)
    return `${seconds > 0 ? '+' : '-'}${magnitude.toFixed(2)}s`;
  return formatSignedSecondsValue(seconds);
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
