// A figure in run A and run B with its change, as every diff field carries it. Pure.

export interface Delta {
  a: number | null;
  b: number | null;
  /** b − a, null when either side is unknown. */
  delta: number | null;
  /** (b − a) / a × 100, null when a is 0 or unknown. */
  pct: number | null;
}

export function roundTo(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function toDelta(a: number | null | undefined, b: number | null | undefined): Delta {
  const [x, y] = [a ?? null, b ?? null];
  const delta = x !== null && y !== null ? roundTo(y - x) : null;
  const pct = delta !== null && x !== null && x !== 0 ? roundTo((delta / x) * 100, 1) : null;
  return { a: x, b: y, delta, pct };
}
