// The one RFC 3339 parser: Go's RFC3339Nano (Zot, BuildKit traces, docker-registry) and nginx's $time_iso8601.
// By hand because Date.parse does not specify 9 fractional digits and allocates a Date per call.

/** Days from 1970-01-01 to the civil date (proleptic Gregorian; Howard Hinnant's days_from_civil). */
function toEpochDays(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function parseDigits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** `YYYY-MM-DDThh:mm:ss` at `at` → ms since the epoch before the zone is applied, or -1. */
function parseSecondMs(text: string, at: number): number {
  const separator = text.charCodeAt(at + 10);
  if (
    text.charCodeAt(at + 4) !== 45 ||
    text.charCodeAt(at + 7) !== 45 ||
    (separator !== 84 && separator !== 116 && separator !== 32) ||
    text.charCodeAt(at + 13) !== 58 ||
    text.charCodeAt(at + 16) !== 58
  )
    return -1;
  const year = parseDigits(text, at, 4);
  const month = parseDigits(text, at + 5, 2);
  const day = parseDigits(text, at + 8, 2);
  const hours = parseDigits(text, at + 11, 2);
  const minutes = parseDigits(text, at + 14, 2);
  const seconds = parseDigits(text, at + 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31) return -1;
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 60) return -1;
  return toEpochDays(year, month, day) * 86_400_000 + ((hours * 60 + minutes) * 60 + seconds) * 1000;
}

/** `Z` or `±hh:mm` (or `±hhmm`) filling [at, end) → its offset in ms, or undefined. */
function parseZoneMs(text: string, at: number, end: number): number | undefined {
  const sign = text.charCodeAt(at);
  if (sign === 90 || sign === 122) return at + 1 === end ? 0 : undefined;
  if (sign !== 43 && sign !== 45) return undefined;
  const colon = text.charCodeAt(at + 3) === 58 ? 1 : 0;
  const hours = parseDigits(text, at + 1, 2);
  const minutes = parseDigits(text, at + 3 + colon, 2);
  if (at + 5 + colon !== end || hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return undefined;
  return (sign === 45 ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

/**
 * Epoch ms of the RFC 3339 timestamp filling text[at, end), fractions below 1 ms kept (up to 9 digits), or undefined
 * when it is not one. The span form lets log readers parse a timestamp inside a chunk without slicing it out.
 */
export function parseRfc3339Ms(text: string, at = 0, end = text.length): number | undefined {
  if (end - at < 20) return undefined;
  const secondMs = parseSecondMs(text, at);
  if (secondMs < 0) return undefined;
  let zoneAt = at + 19;
  let fraction = 0;
  let scale = 1;
  const dot = text.charCodeAt(zoneAt);
  if (dot === 46 || dot === 44) {
    for (let code = text.charCodeAt(++zoneAt); zoneAt < end && code >= 48 && code <= 57;) {
      fraction = fraction * 10 + code - 48;
      scale *= 10;
      code = text.charCodeAt(++zoneAt);
    }
    if (scale === 1 || scale > 1e9) return undefined;
  }
  const zoneMs = parseZoneMs(text, zoneAt, end);
  return zoneMs === undefined ? undefined : secondMs + (fraction * 1000) / scale - zoneMs;
}
