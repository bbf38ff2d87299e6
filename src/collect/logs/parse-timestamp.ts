// RFC 3339 timestamps with 0–9 fractional digits (Go's RFC3339Nano) and nginx's $time_iso8601, parsed by hand:
// Date.parse is slow on the hot path and its handling of 9 fractional digits is not specified.

let cachedDay = -1;
let cachedDayMs = 0;

function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const code = text.charCodeAt(i) - 48;
    if (code < 0 || code > 9) return -1;
    value = value * 10 + code;
  }
  return value;
}

function toDayMs(year: number, month: number, day: number): number {
  const key = (year * 100 + month) * 100 + day;
  if (key !== cachedDay) {
    cachedDay = key;
    cachedDayMs = Date.UTC(year, month - 1, day);
  }
  return cachedDayMs;
}

let fractionEnd = 0;

/** Fraction digits from `start` (before `end`) → ms (truncated); sets fractionEnd to the index after the digits. */
function readFractionMs(text: string, start: number, end: number): number {
  let index = start;
  let ms = 0;
  let scale = 100;
  for (
    let code = text.charCodeAt(index);
    index < end && code >= 48 && code <= 57;
    code = text.charCodeAt(++index)
  ) {
    ms += (code - 48) * scale;
    scale /= 10;
  }
  fractionEnd = index;
  return Math.floor(ms + 1e-9);
}

/** Zone at `index` (`Z`, `+hh:mm`, `+hhmm`) → offset ms, or undefined; it must end the text at `end`. */
function readZoneMs(text: string, index: number, end: number): number | undefined {
  const code = text.charCodeAt(index);
  if ((code === 90 || code === 122) && index + 1 === end) return 0;
  if (code !== 43 && code !== 45) return undefined;
  const colon = text.charCodeAt(index + 3) === 58 ? 1 : 0;
  if (index + 5 + colon !== end) return undefined;
  const hours = digits(text, index + 1, 2);
  const minutes = digits(text, index + 3 + colon, 2);
  if (hours < 0 || minutes < 0 || hours > 23 || minutes > 59) return undefined;
  return (code === 45 ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

/** Epoch ms (fraction below 1 ms truncated) of an RFC 3339 timestamp, or undefined when it is not one. */
export function parseRfc3339Ms(text: string): number | undefined {
  return parseRfc3339Span(text, 0, text.length);
}

/**
 * parseRfc3339Ms of text[at, end), without slicing it out (the log fast paths read timestamps inside a chunk's text;
 * positional arguments because this runs once per line).
 */
export function parseRfc3339Span(text: string, at: number, end: number): number | undefined {
  const secondMs = parseSecondMs(text, at, end);
  return secondMs === undefined ? undefined : finishTimestamp(text, at, end, secondMs);
}

/** The value of `YYYY-MM-DDThh:mm:ss` at `at` (no zone applied), or undefined when those 19 characters are not one. */
function parseSecondMs(text: string, at: number, end: number): number | undefined {
  if (
    end - at < 20 ||
    text.charCodeAt(at + 4) !== 45 ||
    text.charCodeAt(at + 7) !== 45 ||
    text.charCodeAt(at + 13) !== 58 ||
    text.charCodeAt(at + 16) !== 58
  )
    return undefined;
  const separator = text.charCodeAt(at + 10);
  if (separator !== 84 && separator !== 116 && separator !== 32) return undefined;
  const year = digits(text, at, 4);
  const month = digits(text, at + 5, 2);
  const day = digits(text, at + 8, 2);
  const hours = digits(text, at + 11, 2);
  const minutes = digits(text, at + 14, 2);
  const seconds = digits(text, at + 17, 2);
  if (
    year < 0 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 31 ||
    hours < 0 ||
    hours > 23 ||
    minutes < 0 ||
    minutes > 59 ||
    seconds < 0 ||
    seconds > 60
  )
    return undefined;
  return toDayMs(year, month, day) + ((hours * 60 + minutes) * 60 + seconds) * 1000;
}

/** The timestamp from the value of its first 19 characters: the fraction and the zone are read here. */
function finishTimestamp(text: string, at: number, end: number, secondMs: number): number | undefined {
  const dot = text.charCodeAt(at + 19);
  const hasFraction = dot === 46 || dot === 44;
  const fractionMs = hasFraction ? readFractionMs(text, at + 20, end) : 0;
  const zoneAt = hasFraction ? fractionEnd : at + 19;
  if (hasFraction && (zoneAt === at + 20 || zoneAt > at + 29)) return undefined;
  const zoneMs = readZoneMs(text, zoneAt, end);
  if (zoneMs === undefined) return undefined;
  return secondMs + fractionMs - zoneMs;
}

const secondLength = 19;

/**
 * parseRfc3339Span for a log reader's lines, which come in time order, many per second: the first 19 bytes (to the
 * second) of the last timestamp read and their value are remembered, and a timestamp starting with the same bytes
 * only has its fraction and zone read. `bytes` and `text` hold the same characters (latin1: one per byte).
 */
export function createRfc3339Reader(): (
  bytes: Uint8Array,
  text: string,
  at: number,
  end: number,
) => number | undefined {
  const second = new Uint8Array(secondLength);
  let secondMs: number | undefined;
  return (bytes, text, at, end) => {
    if (secondMs !== undefined && end - at >= 20) {
      let same = true;
      for (let i = 0; i < secondLength && same; i++) same = bytes[at + i] === second[i];
      if (same) return finishTimestamp(text, at, end, secondMs);
    }
    secondMs = parseSecondMs(text, at, end);
    if (secondMs === undefined) return undefined;
    second.set(bytes.subarray(at, at + secondLength));
    return finishTimestamp(text, at, end, secondMs);
  };
}
