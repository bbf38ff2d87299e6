// A tiny by-name field reader for flat JSON log lines, so the hot path can skip JSON.parse. It relies on one
// property of valid JSON: an unescaped `"name":` can only be a key. Values are read at the key's position;
// anything it cannot read exactly (odd spacing, escaped keys) is reported as missing and the caller falls back
// to JSON.parse.

/** A precompiled key pattern: `"name":`. */
export function toKeyPattern(name: string): string {
  return `"${name}":`;
}

function isEscaped(line: string, quoteIndex: number): boolean {
  let backslashes = 0;
  for (let i = quoteIndex - 1; i >= 0 && line.charCodeAt(i) === 92; i--) backslashes++;
  return backslashes % 2 === 1;
}

/** Index of the first character of the value of `pattern` (from toKeyPattern), or -1. */
export function findValueStart(line: string, pattern: string, from = 0): number {
  let index = line.indexOf(pattern, from);
  while (index > 0 && isEscaped(line, index)) index = line.indexOf(pattern, index + 1);
  return index < 0 ? -1 : index + pattern.length;
}

/** End index (of the closing quote) of the JSON string whose opening quote is at `openIndex`, or -1. */
export function findStringEnd(line: string, openIndex: number): number {
  let index = line.indexOf('"', openIndex + 1);
  while (index > 0 && isEscaped(line, index)) index = line.indexOf('"', index + 1);
  return index;
}

/** The decoded JSON string starting at `start` (which must be a quote), or undefined. */
export function readJsonString(line: string, start: number): string | undefined {
  if (start < 0 || line.charCodeAt(start) !== 34) return undefined;
  const end = findStringEnd(line, start);
  if (end < 0) return undefined;
  const raw = line.slice(start + 1, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

const numberPattern = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The JSON number starting at `start`, or undefined. */
export function readJsonNumber(line: string, start: number): number | undefined {
  if (start < 0) return undefined;
  numberPattern.lastIndex = start;
  const match = numberPattern.exec(line);
  if (match === null) return undefined;
  const next = line.charCodeAt(numberPattern.lastIndex);
  if (next !== 44 && next !== 125 && next !== 93 && !Number.isNaN(next)) return undefined; // , } ] or end
  return Number(match[0]);
}

/** The value of a string-typed key, or undefined when absent or not a string. */
export function readStringField(line: string, pattern: string, from = 0): string | undefined {
  return readJsonString(line, findValueStart(line, pattern, from));
}

export function readNumberField(line: string, pattern: string, from = 0): number | undefined {
  return readJsonNumber(line, findValueStart(line, pattern, from));
}

/** JSON.parse that returns undefined instead of throwing, and only for objects. */
export function parseJsonObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
