// Go's time.Duration.String() grammar: [-]( 0 | (<number><unit>)+ ), units h m s ms us µs μs ns,
// numbers with an optional fraction ("1h2m3.5s", "81.964986ms", "8.246µs", "0s").

const unitMs: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ns: 1e-6,
};

const termPattern = /(\d+(?:\.\d*)?|\.\d+)(h|ms|m|s|us|µs|μs|ns)/y;

/** Milliseconds of a Go duration string, or undefined when it is not one. */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0s' || text === '0') return 0;
  let position = text.startsWith('-') || text.startsWith('+') ? 1 : 0;
  const sign = text.startsWith('-') ? -1 : 1;
  if (position >= text.length) return undefined;
  let totalMs = 0;
  while (position < text.length) {
    termPattern.lastIndex = position;
    const match = termPattern.exec(text);
    if (match === null) return undefined;
    totalMs += Number(match[1]) * (unitMs[match[2] ?? ''] ?? Number.NaN);
    position = termPattern.lastIndex;
  }
  return Number.isFinite(totalMs) ? sign * totalMs : undefined;
}
