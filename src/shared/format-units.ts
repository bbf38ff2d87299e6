// The one rule for durations and byte counts in every text rocm-perf prints (report, page, diff, trends, plan
// --from-run). Pure. Enough digits that parts visibly add up to their totals, within the last digit shown:
// - seconds: under 0.1 s three decimals (`0.006s`), under a minute two (`10.67s`, `0.37s`), from a minute whole
//   seconds (`4m05s`, `1h02m03s`), where a hundredth is noise; exactly 0 is `0s`;
// - bytes: decimal units (1 kB = 1000 B, as link_mbps is), three significant digits (`4.12 MB`, `386 kB`), whole
//   bytes under 1 kB.
// - a part derived from shown figures is derived from them as shown (toShownDifference), so it adds up exactly.
// docs/report.md ("Numbers") says why.

const pad = (value: number): string => String(value).padStart(2, '0');

/**
 * A whole count with thousands separators (`3,891,862`), for exact byte and line counts in warnings. Written out
 * rather than through Intl: the first Intl.NumberFormat of a process loads ICU's number data (~5 ms of a report).
 */
export function formatCount(count: number): string {
  if (!Number.isSafeInteger(count)) return count.toLocaleString('en-US');
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** How the report and the page show a figure that is not known (yet); never 0. */
const UNKNOWN = '—';

/** The number formatDuration shows for these seconds (rounded as it rounds). */
function toShownSeconds(seconds: number): number {
  const magnitude = Math.abs(seconds);
  if (magnitude >= 59.995) return Math.sign(seconds) * Math.round(magnitude);
  // toFixed, as the formatter: it rounds the binary value (0.695 is 0.69499…), Math.round(x × 100) does not.
  return Number(seconds.toFixed(magnitude < 0.1 ? 3 : 2));
}

/**
 * A part derived from two shown figures (a gap = total − build, a change = B − A), taken from the figures as shown
 * rather than from the raw ones, so the three visibly add up.
 */
export function toShownDifference(minuend: number, subtrahend: number): number {
  return toShownSeconds(minuend) - toShownSeconds(subtrahend);
}

/**
 * The one duration formatter: `0.006s`, `10.67s`, `4m05s`, `1h02m03s`; `0s` for 0. A figure that is not known
 * (null, NaN, ±Infinity) reads `unknown`: `—` in the report and the page, `n/a` in diff and trends text (as their
 * outputs always have).
 */
export function formatDuration(seconds: number | null, unknown: string = UNKNOWN): string {
  if (seconds === null || !Number.isFinite(seconds)) return unknown;
  if (seconds < 0) return `-${formatDuration(-seconds)}`;
  if (seconds === 0) return '0s';
  if (seconds < 0.1) return `${seconds.toFixed(3)}s`;
  if (seconds < 59.995) return `${seconds.toFixed(2)}s`;
  const total = Math.round(seconds);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  if (h > 0) return `${h}h${pad(m)}m${pad(s)}s`;
  return `${m}m${pad(s)}s`;
}

/** `+2.59s`, `-42.10s`, `+9m12s`; `±0` for 0. */
export function formatSignedSecondsValue(seconds: number): string {
  if (seconds === 0) return '±0';
  return `${seconds > 0 ? '+' : '-'}${formatDuration(Math.abs(seconds))}`;
}

/** The one byte formatter: `4.12 MB`, `386 kB`, `512 B` (decimal units); `unknown` as formatDuration's. */
export function formatBytes(bytes: number | null, unknown: string = UNKNOWN): string {
  if (bytes === null || !Number.isFinite(bytes)) return unknown;
  if (bytes < 0) return `-${formatBytes(-bytes)}`;
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let [value, unit] = [bytes, 0];
  while (value >= 999.5 && unit < units.length - 1) [value, unit] = [value / 1000, unit + 1];
  if (unit === 0) return `${Math.round(value)} B`;
  return `${value.toFixed(value >= 99.95 ? 0 : value >= 9.995 ? 1 : 2)} ${units[unit]}`;
}

/** The step formatDuration rounds these seconds to: 0.001 under 0.1 s, 0.01 under a minute, 1 from a minute. */
export function toSecondsStep(seconds: number): number {
  const magnitude = Math.abs(seconds);
  return magnitude < 0.1 ? 0.001 : magnitude < 59.995 ? 0.01 : 1;
}

/**
 * Seconds already rounded to a whole number of `step`s, written at that step as formatDuration writes it
 * (`1m45s`, `2.37s`, `0.040s`), and whole seconds under a minute as `2s` when the step is a second.
 */
export function formatSecondsAtStep(seconds: number, step: number): string {
  if (seconds < 0) return `-${formatSecondsAtStep(-seconds, step)}`;
  if (seconds === 0) return '0s';
  if (step < 1) return `${seconds.toFixed(step < 0.01 ? 3 : 2)}s`;
  const total = Math.round(seconds);
  if (total < 60) return `${total}s`;
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  if (h > 0) return `${h}h${pad(m)}m${pad(s)}s`;
  return `${m}m${pad(s)}s`;
}

/**
 * Parts of a total, each rounded to a whole number of `step`s so that they add up to `totalSteps` steps exactly (the
 * total as shown): each part is its value rounded down or up, the ups going to the largest remainders (Hamilton's
 * method). Returns seconds. Used where a table shows parts beside their sum (`plan`'s rows and nodes).
 */
export function toShownParts(parts: readonly number[], totalSteps: number, step: number): number[] {
  const scaled = parts.map((part) => Math.max(0, part) / step);
  const counts = scaled.map((value) => Math.floor(value + 1e-9));
  const remainder = (i: number) => scaled[i]! - counts[i]!;
  const byRemainder = parts.map((_, i) => i).sort((a, b) => remainder(b) - remainder(a) || a - b);
  let left = totalSteps - counts.reduce((sum, count) => sum + count, 0);
  for (let k = 0; left > 0 && byRemainder.length > 0; k++, left--)
    counts[byRemainder[k % byRemainder.length]!]! += 1;
  for (
    let k = byRemainder.length - 1;
    left < 0 && byRemainder.length > 0;
    k = (k + byRemainder.length - 1) % byRemainder.length
  ) {
    const i = byRemainder[k]!;
    if (counts[i]! > 0) {
      counts[i]! -= 1;
      left += 1;
    } else if (counts.every((count) => count === 0)) break;
  }
  return counts.map((count) => count * step);
}
