// Zot's session log (`"message":"HTTP API"`), both layouts: zerolog (≤ v2.1.8) and log/slog (≥ v2.1.9).
// Keyed by name, never by position. Fast path: one anchored regular expression per known layout that matches the
// WHOLE line (every key, every string, the closing brace), so a line it accepts is a well-formed session line.
// Any other line (another key order, extra keys, whitespace, not HTTP) goes through the by-name walker
// (walkJsonObject). parseZotLineWithJsonParse is the JSON.parse reference; tests check all three agree.
import type { LineOutcome } from './line-outcome.js';
import { toRecord, toReject, toSkip } from './line-outcome.js';
import { parseJsonObject } from './json-fields.js';
import { parseGoDuration } from './parse-go-duration.js';
import { parseRfc3339Ms } from './parse-timestamp.js';
import type { RegistryEntry } from './registry-entry.js';
import { toClientIp, toContentLength } from './registry-entry.js';
import {
  createKeySet,
  decodeJsonString,
  readWalkedValue,
  skipString,
  walkJsonObject,
} from './walk-json-object.js';

const fieldNames = [
  'time',
  'message',
  'clientIP',
  'method',
  'path',
  'statusCode',
  'latency',
  'bodySize',
  'headers',
] as const;
const slot = Object.fromEntries(fieldNames.map((name, index) => [name, index])) as Record<
  (typeof fieldNames)[number],
  number
>;
const wanted = createKeySet(fieldNames);
const contentLengthWanted = createKeySet(['Content-Length']);

export interface ZotFields {
  time: unknown;
  message: unknown;
  clientIP: unknown;
  method: unknown;
  path: unknown;
  statusCode: unknown;
  latency: unknown;
  bodySize: unknown;
  contentLength: unknown;
}

/** Fields read by name → the entry, or a skip or rejection; shared by every Zot path so their results agree. */
export function toZotEntry(fields: ZotFields): LineOutcome<RegistryEntry> {
  if (fields.message !== 'HTTP API')
    return fields.message === 'HTTP API Audit' ? toSkip('audit line') : toSkip('not an HTTP line');
  const tsMs = typeof fields.time === 'string' ? parseRfc3339Ms(fields.time) : undefined;
  if (tsMs === undefined)
    return toReject(`time: expected an RFC 3339 timestamp, got ${JSON.stringify(fields.time)}`);
  const { clientIP, method, path, statusCode } = fields;
  if (typeof clientIP !== 'string' || typeof method !== 'string' || typeof path !== 'string') {
    return toReject('clientIP, method and path must be strings');
  }
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode))
    return toReject(`statusCode: expected an integer, got ${JSON.stringify(statusCode)}`);
  return toRecord({
    tsMs,
    clientAddress: toClientIp(clientIP),
    method,
    path,
    status: statusCode,
    durationMs: typeof fields.latency === 'string' ? (parseGoDuration(fields.latency) ?? null) : null,
    requestBytes: toContentLength(fields.contentLength),
    responseBytes: typeof fields.bodySize === 'number' && fields.bodySize >= 0 ? fields.bodySize : null,
  });
}

// A JSON string exactly: no raw control characters, only valid escapes. Numbers without leading zeros.
const chars = '(?:[^"\\\\\\u0000-\\u001f]|\\\\["\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4})*';
const str = `"(${chars})"`;
const skipStr = `"${chars}"`;
const int = '(0|[1-9]\\d*)';
const headerArray = `\\[(?:${skipStr}(?:,${skipStr})*)?\\]`;
const headerPair = `${skipStr}:${headerArray}`;
const headers = `\\{((?:${headerPair}(?:,${headerPair})*)?)\\}`;
const request = `"clientIP":${str},"method":${str},"path":${str},"statusCode":${int},"latency":${str},"bodySize":${int},"headers":${headers}`;
// Groups: 1 time, 2 username, 3 clientIP, 4 method, 5 path, 6 statusCode, 7 latency, 8 bodySize, 9 headers.
const slogLine = new RegExp(
  `^\\{"time":${str},"level":"info","message":"HTTP API","module":"http"(?:,"username":${str})?,"component":"session",${request},"caller":${skipStr},"func":${skipStr},"goroutine":(?:0|[1-9]\\d*)\\}$`,
);
// Groups: 1 username, 2 clientIP, 3 method, 4 path, 5 statusCode, 6 latency, 7 bodySize, 8 headers, 9 time.
const zerologLine = new RegExp(
  `^\\{"level":"info","module":"http"(?:,"username":${str})?(?:,"component":"session")?,${request},"goroutine":(?:0|[1-9]\\d*),"caller":${skipStr},"time":${str},"message":"HTTP API"\\}$`,
);
const contentLengthHeader = new RegExp(`(?:^|,)"Content-Length":\\[(?:${str})?`, 'g');

/** The first element of the LAST `Content-Length` array: JSON.parse keeps the last of duplicate keys. */
function readContentLengthHeader(headersText: string): string | undefined {
  let last: RegExpExecArray | undefined;
  contentLengthHeader.lastIndex = 0;
  for (
    let match = contentLengthHeader.exec(headersText);
    match !== null;
    match = contentLengthHeader.exec(headersText)
  )
    last = match;
  return last?.[1] === undefined ? undefined : decodeJsonString(last[1]);
}

function readLayout(line: string): ZotFields | undefined {
  const slog = slogLine.exec(line);
  const match = slog ?? zerologLine.exec(line);
  if (match === null) return undefined;
  const at = slog === null ? 1 : 2;
  return {
    time: decodeJsonString(match[slog === null ? 9 : 1] ?? ''),
    message: 'HTTP API',
    clientIP: decodeJsonString(match[at + 1] ?? ''),
    method: decodeJsonString(match[at + 2] ?? ''),
    path: decodeJsonString(match[at + 3] ?? ''),
    statusCode: Number(match[at + 4]),
    latency: decodeJsonString(match[at + 5] ?? ''),
    bodySize: Number(match[at + 6]),
    contentLength: readContentLengthHeader(match[at + 7] ?? ''),
  };
}

const isBlankTail = (line: string, end: number) =>
  end === line.length || /^[ \t\r\n]*$/.test(line.slice(end));

function readContentLength(line: string, found: Int32Array): unknown {
  const start = found[2 * slot.headers] ?? -1;
  if (start < 0 || line.charCodeAt(start) !== 123) return undefined;
  inner.fill(-1);
  walkJsonObject(line, start, contentLengthWanted, inner);
  const valueStart = inner[0] ?? -1;
  if (valueStart < 0 || line.charCodeAt(valueStart) !== 91) return undefined;
  let first = valueStart + 1;
  while (
    line.charCodeAt(first) === 32 ||
    line.charCodeAt(first) === 9 ||
    line.charCodeAt(first) === 10 ||
    line.charCodeAt(first) === 13
  )
    first++;
  if (line.charCodeAt(first) !== 34) return undefined;
  inner[0] = first;
  inner[1] = skipString(line, first);
  return readWalkedValue(line, inner, 0);
}

// Scratch space reused for every line (the parser is synchronous).
const found = new Int32Array(2 * fieldNames.length);
const inner = new Int32Array(2);

/** One Zot log line → a session entry, or a skip (non-JSON, non-HTTP, audit) or rejection (malformed). */
export function parseZotLine(line: string): LineOutcome<RegistryEntry> {
  if (line.charCodeAt(0) !== 123) return line.trim() === '' ? toSkip('blank line') : toSkip('not JSON');
  const fields = readLayout(line);
  if (fields !== undefined) return toZotEntry(fields);
  found.fill(-1);
  const end = walkJsonObject(line, 0, wanted, found);
  if (end < 0 || !isBlankTail(line, end))
    return line.trimEnd().endsWith('}') ? toReject('invalid JSON') : toReject('truncated JSON line');
  const read = (name: (typeof fieldNames)[number]) => readWalkedValue(line, found, slot[name]);
  return toZotEntry({
    time: read('time'),
    message: read('message'),
    clientIP: read('clientIP'),
    method: read('method'),
    path: read('path'),
    statusCode: read('statusCode'),
    latency: read('latency'),
    bodySize: read('bodySize'),
    contentLength: readContentLength(line, found),
  });
}

/** The same result through JSON.parse (the reference the fast path is tested against, and a bench baseline). */
export function parseZotLineWithJsonParse(line: string): LineOutcome<RegistryEntry> {
  if (line.charCodeAt(0) !== 123) return line.trim() === '' ? toSkip('blank line') : toSkip('not JSON');
  const object = parseJsonObject(line);
  if (object === undefined)
    return line.trimEnd().endsWith('}') ? toReject('invalid JSON') : toReject('truncated JSON line');
  const headers = object.headers;
  const lengths =
    typeof headers === 'object' && headers !== null && !Array.isArray(headers)
      ? (headers as Record<string, unknown>)['Content-Length']
      : undefined;
  const contentLength = Array.isArray(lengths) && typeof lengths[0] === 'string' ? lengths[0] : undefined;
  return toZotEntry({ ...(object as Omit<ZotFields, 'contentLength'>), contentLength });
}

const timeKey = '"time":"';

/** The `time` of a Zot line, for binary search (a cheap look-up; the line is not validated). */
export function timeOfZotLine(line: string): number | undefined {
  const start = line.indexOf(timeKey);
  if (start < 0) return undefined;
  const end = line.indexOf('"', start + timeKey.length);
  return end < 0 ? undefined : parseRfc3339Ms(line.slice(start + timeKey.length, end));
}

/** Whether a line takes the fast path (matches one of the two known layouts exactly); for tests and benchmarks. */
export function isKnownZotLayout(line: string): boolean {
  return slogLine.test(line) || zerologLine.test(line);
}
