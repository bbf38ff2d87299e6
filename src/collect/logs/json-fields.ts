// JSON log lines read the general way: JSON.parse, with the reasons a line is skipped or rejected named once.
import type { ByteLine } from './byte-line.js';
import { decodeLine } from './byte-line.js';
import type { LineOutcome } from './line-outcome.js';
import { toRecord, toReject, toSkip } from './line-outcome.js';
import { parseRfc3339Ms } from './parse-timestamp.js';

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

/** A line decoded as UTF-8 → its object, or a skip (blank, not JSON) or rejection (invalid, truncated). */
export function parseJsonLine(line: ByteLine): LineOutcome<Record<string, unknown>> {
  const text = decodeLine(line);
  if (text.charCodeAt(0) !== 123) return text.trim() === '' ? toSkip('blank line') : toSkip('not JSON');
  const object = parseJsonObject(text);
  if (object !== undefined) return toRecord(object);
  return text.trimEnd().endsWith('}') ? toReject('invalid JSON') : toReject('truncated JSON line');
}

const timeKey = '"time":"';

/** The first `"time":"…"` value of a line, for the binary search (a cheap look-up; the line is not validated). */
export function timeOfJsonLine(line: string): number | undefined {
  const start = line.indexOf(timeKey);
  if (start < 0) return undefined;
  const at = start + timeKey.length;
  return parseRfc3339Ms(line, at, line.indexOf('"', at));
}
