// Go's time.Duration.String() grammar: [-+]( 0 | (<number><unit>)+ ), units h m s ms us µs μs ns, numbers with an
// optional fraction ("1h2m3.5s", "81.964986ms", "8.246µs", "0s"). Read by hand: it runs once per registry line.

const MICRO_SIGN = 0xb5;
const GREEK_MU = 0x3bc;

/** ms per unit of the unit at `at` and its length, or undefined when none starts there. */
function parseUnit(text: string, at: number): { ms: number; length: number } | undefined {
  const code = text.charCodeAt(at);
  const next = text.charCodeAt(at + 1);
  if (code === 104) return { ms: 3_600_000, length: 1 }; // h
  if (code === 109) return next === 115 ? { ms: 1, length: 2 } : { ms: 60_000, length: 1 }; // ms, m
  if (code === 115) return { ms: 1000, length: 1 }; // s
  if (next === 115 && (code === 117 || code === MICRO_SIGN || code === GREEK_MU))
    return { ms: 1e-3, length: 2 };
  if (code === 110 && next === 115) return { ms: 1e-6, length: 2 }; // ns
  return undefined;
}

/** Milliseconds of a Go duration string, or undefined when it is not one. */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0' || text === '0s') return 0;
  const sign = text.charCodeAt(0) === 45 ? -1 : 1;
  let at = text.charCodeAt(0) === 45 || text.charCodeAt(0) === 43 ? 1 : 0;
  if (at >= text.length) return undefined;
  let totalMs = 0;
  while (at < text.length) {
    const numberAt = at;
    let value = 0;
    let scale = 1;
    let digits = 0;
    for (let code = text.charCodeAt(at); code >= 48 && code <= 57; code = text.charCodeAt(++at), digits++)
      value = value * 10 + code - 48;
    if (text.charCodeAt(at) === 46)
      for (
        let code = text.charCodeAt(++at);
        code >= 48 && code <= 57;
        code = text.charCodeAt(++at), digits++
      ) {
        value = value * 10 + code - 48;
        scale *= 10;
      }
    const unit = digits === 0 ? undefined : parseUnit(text, at);
    if (unit === undefined) return undefined;
    // Beyond 15 digits the running sum rounds: read those as Number() would.
    totalMs += (digits > 15 ? Number(text.slice(numberAt, at)) : value / scale) * unit.ms;
    at += unit.length;
  }
  return Number.isFinite(totalMs) ? sign * totalMs : undefined;
}
