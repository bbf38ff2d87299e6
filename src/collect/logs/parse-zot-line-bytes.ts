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
import { parseRfc3339Span } from './parse-timestamp.js';
import type { RegistryEntry } from './registry-entry.js';
import { toClientIp, toContentLength } from './registry-entry.js';

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

const clientKey = '"clientIP":"';
const headersEndSlog = '},"caller":"';
const headersEndZerolog = '},"goroutine":';
const contentLengthKey = '"Content-Length":[';
const zerologTimeKey = '"time":"';

/** Whether the whole line [start, end) is a session line of the layout `pattern` describes. */
function matchesLine(pattern: RegExp, line: ByteLine): boolean {
  pattern.lastIndex = line.start;
  return pattern.test(line.text) && pattern.lastIndex === line.end;
}

/** The integer whose digits start at `at` (the pattern checked them); Number() of them beyond 15 digits. */
function readInt(text: string, at: number): number {
  let value = 0;
  let i = at;
  for (let code = text.charCodeAt(i); code >= 48 && code <= 57; code = text.charCodeAt(++i))
    value = value * 10 + code - 48;
  return i - at > 15 ? Number(text.slice(at, i)) : value;
}

const digitsEnd = (text: string, at: number) => {
  let i = at;
  while (text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
  return i;
};

/** The latency's text: ASCII as is, else its bytes re-decoded as UTF-8 (`µs`). */
function readLatency(line: ByteLine, at: number, end: number): string {
  for (let i = at; i < end; i++)
    if (line.text.charCodeAt(i) > 126) return line.bytes.toString('utf8', at, end);
  return line.text.slice(at, end);
}

/** The first element of the LAST `Content-Length` array (JSON.parse keeps the last duplicate key), if a string. */
function readContentLength(text: string, headersAt: number, headersEnd: number): string | undefined {
  // Searched in a slice (a view, no copy): a search of the chunk's text would not stop at the line's end.
  const headers = text.slice(headersAt, headersEnd);
  const key = headers.lastIndexOf(contentLengthKey);
  const first = key + contentLengthKey.length;
  if (key < 0 || headers.charCodeAt(first) !== 34) return undefined;
  return headers.slice(first + 1, headers.indexOf('"', first + 1));
}

/** `text` as a string of its own: V8 makes slices of 13 characters or more views that keep the chunk alive. */
const toOwnString = (text: string) =>
  text.length < 13 ? text : Buffer.from(text, 'latin1').toString('latin1');

/** The request fields from `"clientIP":` on; undefined for a status that is not an integer (the exact parser says why). */
function readRequest(line: ByteLine, tsMs: number, isSlog: boolean): RegistryEntry | undefined {
  const text = line.text;
  const ipAt = text.indexOf(clientKey, line.start) + clientKey.length;
  const ipEnd = text.indexOf('"', ipAt);
  const methodEnd = text.indexOf('"', ipEnd + 12);
  const pathEnd = text.indexOf('"', methodEnd + 10);
  const status = readInt(text, pathEnd + 15);
  const latencyAt = digitsEnd(text, pathEnd + 15) + 12;
  const latencyEnd = text.indexOf('"', latencyAt);
  const bodyAt = latencyEnd + 13;
  const headersAt = digitsEnd(text, bodyAt) + 11;
  const headersEnd = text.indexOf(isSlog ? headersEndSlog : headersEndZerolog, headersAt);
  if (!Number.isInteger(status)) return undefined;
  return {
    tsMs,
    clientAddress: toOwnString(toClientIp(text.slice(ipAt, ipEnd))),
    method: toOwnString(text.slice(ipEnd + 12, methodEnd)),
    path: copyLineText(line, methodEnd + 10, pathEnd - methodEnd - 10),
    status,
    durationMs: parseGoDuration(readLatency(line, latencyAt, latencyEnd)) ?? null,
    requestBytes: toContentLength(readContentLength(text, headersAt, headersEnd)),
    responseBytes: readInt(text, bodyAt),
  };
}

function readTime(line: ByteLine, isSlog: boolean): number | undefined {
  const at = isSlog
    ? line.start + 9
    : line.text.lastIndexOf(zerologTimeKey, line.end) + zerologTimeKey.length;
  return parseRfc3339Span(line.text, at, line.text.indexOf('"', at));
}

/** A plain session line in one of Zot's two layouts → its entry; undefined when the exact parser must decide. */
export function parseZotEntryBytes(line: ByteLine): RegistryEntry | undefined {
  const isSlog = line.text.charCodeAt(line.start + 2) === 116;
  if (!matchesLine(isSlog ? slogLine : zerologLine, line)) return undefined;
  const tsMs = readTime(line, isSlog);
  return tsMs === undefined ? undefined : readRequest(line, tsMs, isSlog);
}
