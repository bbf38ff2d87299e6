// The Zot session line fast path: one sticky regular expression per layout (slog ≥ v2.1.9, zerolog ≤ v2.1.8),
// tested at the line's start in the chunk's latin1 text (one character per byte, exactly the UTF-8 text where it is
// ASCII), accepting PLAIN JSON only: every string printable ASCII without escapes (the latency may hold the µ of
// `µs`, re-decoded as UTF-8), integers without leading zeros, the headers object, the closing brace at the line's
// end. A line it accepts is well-formed JSON with the key order Zot writes, and since no string holds a `"`, each
// value is found by indexOf of its key; the entry built from them is what toZotEntry gives for the JSON.parse values
// (fuzz-checked). Any other line (escapes, control characters, non-ASCII, another key order, extra keys, not HTTP,
// an unusual timestamp) returns undefined and the caller uses parseZotLine on the line's UTF-8 decoding.
// Cost: no string per line, no captures — only path and client address are copied out. V8 runs the expression
// natively, several times faster than a JavaScript loop over the bytes.
import type { ByteLine } from './byte-line.js';
import { copyLineText } from './byte-line.js';
import { parseGoDuration } from './parse-go-duration.js';
import { createRfc3339Reader } from './parse-timestamp.js';
import type { RegistryEntry } from './registry-entry.js';
import { toClientIp } from './registry-entry.js';

const plain = '[ !#-\\[\\]-~]*';
const str = `"${plain}"`;
const int = '(?:0|[1-9][0-9]*)';
const headerPair = `${str}:\\[(?:${str}(?:,${str})*)?\\]`;
const request = `"clientIP":${str},"method":${str},"path":${str},"statusCode":${int},"latency":"[ !#-\\[\\]-~\\x80-\\xff]*","bodySize":${int},"headers":\\{(?:${headerPair}(?:,${headerPair})*)?\\}`;
const slogLine = new RegExp(
  `\\{"time":${str},"level":"info","message":"HTTP API","module":"http"(?:,"username":${str})?,"component":"session",${request},"caller":${str},"func":${str},"goroutine":${int}\\}`,
  'y',
);
const zerologLine = new RegExp(
  `\\{"level":"info","module":"http"(?:,"username":${str})?(?:,"component":"session")?,${request},"goroutine":${int},"caller":${str},"time":${str},"message":"HTTP API"\\}`,
  'y',
);

// The layouts' fixed parts around the client address (the patterns checked them), so it is found without a search.
const slogAfterTime = '","level":"info","message":"HTTP API","module":"http"';
const zerologHead = '{"level":"info","module":"http"';
const usernameKey = ',"username":"';
const componentPart = ',"component":"session"';
const clientKey = ',"clientIP":"';
// The headers object ends at its first `},"`: no string holds a `"`, and inside it `}` only closes it.
const headersEnd = '},"';
const contentLengthKey = '"Content-Length":[';
const zerologTimeKey = '"time":"';

/** Whether the whole line [start, end) is a session line of the layout `pattern` describes. */
function matchesLine(pattern: RegExp, line: ByteLine): boolean {
  pattern.lastIndex = line.start;
  return pattern.test(line.text) && pattern.lastIndex === line.end;
}

/** The integer whose digits start at `at` (the pattern checked them); Number() of them beyond 15 digits. */
function readInt(line: ByteLine, at: number): number {
  const bytes = line.bytes;
  let value = 0;
  let i = at;
  for (let byte = bytes[i] ?? 0; byte >= 48 && byte <= 57; byte = bytes[++i] ?? 0)
    value = value * 10 + byte - 48;
  return i - at > 15 ? Number(line.text.slice(at, i)) : value;
}

/** The index just past the digits starting at `at`. */
function digitsEnd(line: ByteLine, at: number): number {
  const bytes = line.bytes;
  let i = at;
  for (let byte = bytes[i] ?? 0; byte >= 48 && byte <= 57; byte = bytes[++i] ?? 0);
  return i;
}

/** The latency's text: ASCII as is, else its bytes re-decoded as UTF-8 (`µs`). */
function readLatency(line: ByteLine, at: number, end: number): string {
  for (let i = at; i < end; i++)
    if (line.text.charCodeAt(i) > 126) return line.bytes.toString('utf8', at, end);
  return line.text.slice(at, end);
}

/**
 * toContentLength of the first element of the LAST `Content-Length` array (JSON.parse keeps the last duplicate key):
 * a string of 1–15 digits → its value, anything else → null. Digits are read from the bytes.
 */
function readContentLength(line: ByteLine, headersAt: number, headersEnd: number): number | null {
  // The last occurrence by forward indexOf (lastIndexOf is not a fast built-in), in a slice of the headers (a view,
  // no copy): a search of the chunk's text would not stop at the line's end.
  const headers = line.text.slice(headersAt, headersEnd);
  let key = -1;
  for (let at = headers.indexOf(contentLengthKey); at >= 0; at = headers.indexOf(contentLengthKey, at + 1))
    key = at;
  const quote = headersAt + key + contentLengthKey.length;
  const bytes = line.bytes;
  if (key < 0 || bytes[quote] !== 34) return null;
  let value = 0;
  let i = quote + 1;
  for (let byte = bytes[i] ?? 0; byte >= 48 && byte <= 57; byte = bytes[++i] ?? 0)
    value = value * 10 + byte - 48;
  const count = i - quote - 1;
  return bytes[i] === 34 && count >= 1 && count <= 15 ? value : null;
}

/** `text` as a string of its own: V8 makes slices of 13 characters or more views that keep the chunk alive. */
const toOwnString = (text: string) =>
  text.length < 13 ? text : Buffer.from(text, 'latin1').toString('latin1');

/** The method at [at, end): the common ones as constants (no string per line), others copied. */
function readMethod(line: ByteLine, at: number, end: number): string {
  const first = line.bytes[at];
  const length = end - at;
  if (first === 71 && length === 3 && line.text.startsWith('GET', at)) return 'GET';
  if (first === 72 && length === 4 && line.text.startsWith('HEAD', at)) return 'HEAD';
  if (first === 80 && length === 3 && line.text.startsWith('PUT', at)) return 'PUT';
  if (first === 80 && length === 4 && line.text.startsWith('POST', at)) return 'POST';
  if (first === 80 && length === 5 && line.text.startsWith('PATCH', at)) return 'PATCH';
  return toOwnString(line.text.slice(at, end));
}

/** toClientIp of the address at [at, end), without slicing the address first when it is `ipv4:port`. */
function readClientIp(line: ByteLine, at: number, end: number): string {
  const text = line.text;
  const colon = text.indexOf(':', at);
  if (line.bytes[at] === 91 || colon < 0 || colon >= end || text.indexOf(':', colon + 1) < end)
    return toOwnString(toClientIp(text.slice(at, end)));
  return toOwnString(text.slice(at, colon));
}

/** Where the client address starts: after the optional username and component (`,"u…`, `,"co…` vs `,"cl…`). */
function findClientAt(line: ByteLine, isSlog: boolean, timeEnd: number): number {
  const text = line.text;
  let at = isSlog ? timeEnd + slogAfterTime.length : line.start + zerologHead.length;
  if (text.charCodeAt(at + 2) === 117) at = text.indexOf('"', at + usernameKey.length) + 1;
  if (text.charCodeAt(at + 3) === 111) at += componentPart.length;
  return at + clientKey.length;
}

/**
 * The request fields from the client address (at `ipAt`) on into `entry`; false for a status that is not an integer
 * (the exact parser says why). The path is copied when copyPath(method), else left a view of the chunk's text.
 */
function readRequest(
  line: ByteLine,
  entry: RegistryEntry,
  ipAt: number,
  copyPath: (method: string) => boolean,
): boolean {
  const text = line.text;
  const ipEnd = text.indexOf('"', ipAt);
  const methodEnd = text.indexOf('"', ipEnd + 12);
  const pathEnd = text.indexOf('"', methodEnd + 10);
  const status = readInt(line, pathEnd + 15);
  if (!Number.isInteger(status)) return false;
  const latencyAt = digitsEnd(line, pathEnd + 15) + 12;
  const latencyEnd = text.indexOf('"', latencyAt);
  const bodyAt = latencyEnd + 13;
  const headersAt = digitsEnd(line, bodyAt) + 11;
  entry.clientAddress = readClientIp(line, ipAt, ipEnd);
  entry.method = readMethod(line, ipEnd + 12, methodEnd);
  entry.path = copyPath(entry.method)
    ? copyLineText(line, methodEnd + 10, pathEnd - methodEnd - 10)
    : text.slice(methodEnd + 10, pathEnd);
  entry.status = status;
  entry.durationMs = parseGoDuration(readLatency(line, latencyAt, latencyEnd)) ?? null;
  entry.requestBytes = readContentLength(line, headersAt, text.indexOf(headersEnd, headersAt));
  entry.responseBytes = readInt(line, bodyAt);
  return true;
}

const readRfc3339 = createRfc3339Reader();

/** Where the time value starts: the second key of a slog line; in a zerolog line, the last but one value. */
const findTimeAt = (line: ByteLine, isSlog: boolean) =>
  isSlog ? line.start + 9 : line.text.lastIndexOf(zerologTimeKey, line.end) + zerologTimeKey.length;

const always = () => true;

/** A plain session line in one of Zot's two layouts → its entry; undefined when the exact parser must decide. */
export function parseZotEntryBytes(line: ByteLine): RegistryEntry | undefined {
  const entry = createEntry();
  return readZotEntryBytes(line, entry, always) ? entry : undefined;
}

export const createEntry = (): RegistryEntry => ({
  tsMs: 0,
  clientAddress: '',
  method: '',
  path: '',
  status: 0,
  durationMs: null,
  requestBytes: null,
  responseBytes: null,
});

/**
 * parseZotEntryBytes into a caller's (scratch) entry: true when the line was read. The path is copied when
 * `copyPath(method)` says so, else it stays a view of the chunk's text: only for an entry whose strings do not
 * outlive the line.
 */
export function readZotEntryBytes(
  line: ByteLine,
  entry: RegistryEntry,
  copyPath: (method: string) => boolean,
): boolean {
  const isSlog = line.bytes[line.start + 2] === 116;
  if (!matchesLine(isSlog ? slogLine : zerologLine, line)) return false;
  const timeAt = findTimeAt(line, isSlog);
  const timeEnd = line.text.indexOf('"', timeAt);
  const tsMs = readRfc3339(line.bytes, line.text, timeAt, timeEnd);
  if (tsMs === undefined) return false;
  entry.tsMs = tsMs;
  return readRequest(line, entry, findClientAt(line, isSlog, timeEnd), copyPath);
}
