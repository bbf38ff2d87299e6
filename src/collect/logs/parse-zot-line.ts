// Zot's session log (`"message":"HTTP API"`), both layouts: zerolog (≤ v2.1.8) and log/slog (≥ v2.1.9), keyed by
// name. Nearly every line is plain JSON in the exact key order Zot writes: one sticky regular expression per layout
// checks the whole line (V8 runs it natively, far faster than JSON.parse, which builds the headers object), and the
// values are then found from the layout's fixed parts. Any other line — escapes, other non-ASCII, another key order,
// extra keys, not an HTTP line, an odd timestamp — is read with JSON.parse. Tests hold both to a JSON.parse oracle.
import type { ByteLine } from './byte-line.js';
import { copyLineText } from './byte-line.js';
import { parseJsonLine } from './json-fields.js';
import type { LineOutcome } from './line-outcome.js';
import { toRecord, toReject, toSkip } from './line-outcome.js';
import { parseGoDuration } from './parse-go-duration.js';
import { parseRfc3339Ms } from './parse-timestamp.js';
import type { RegistryEntry } from './registry-entry.js';
import { toClientIp, toContentLength } from './registry-entry.js';

// Plain strings only: printable ASCII without `"` or `\`, so a value ends at the next `"`.
const str = '"[ !#-\\[\\]-~]*"';
const int = '(?:0|[1-9][0-9]*)';
const headerPair = `${str}:\\[(?:${str}(?:,${str})*)?\\]`;
// Go writes `µs` as UTF-8: the latency alone may hold bytes ≥ 0x80 (decoded again below).
const request = `"clientIP":${str},"method":${str},"path":${str},"statusCode":${int},"latency":"[ !#-\\[\\]-~\\x80-\\xff]*","bodySize":${int},"headers":\\{(?:${headerPair}(?:,${headerPair})*)?\\}`;
const slogLine = new RegExp(
  `\\{"time":${str},"level":"info","message":"HTTP API","module":"http"(?:,"username":${str})?,"component":"session",${request},"caller":${str},"func":${str},"goroutine":${int}\\}`,
  'y',
);
const zerologLine = new RegExp(
  `\\{"level":"info","module":"http"(?:,"username":${str})?(?:,"component":"session")?,${request},"goroutine":${int},"caller":${str},"time":${str},"message":"HTTP API"\\}`,
  'y',
);

const slogHead = '{"time":"';
const slogAfterTime = '","level":"info","message":"HTTP API","module":"http"';
const zerologHead = '{"level":"info","module":"http"';
const zerologTimeKey = '"time":"';
const usernameKey = ',"username":"';
const componentPart = ',"component":"session"';
const clientKey = ',"clientIP":"';
const methodKey = '","method":"';
const pathKey = '","path":"';
const statusKey = '","statusCode":';
const latencyKey = ',"latency":"';
const bodySizeKey = '","bodySize":';
const headersKey = ',"headers":';
const contentLengthKey = '"Content-Length":[';

/** The integer whose digits start at `at` (checked by the pattern), and where they end. */
function parseDigitRun(text: string, at: number): { value: number; end: number } {
  let value = 0;
  let end = at;
  for (let digit = text.charCodeAt(end) - 48; digit >= 0 && digit <= 9; digit = text.charCodeAt(++end) - 48)
    value = value * 10 + digit;
  // Beyond 15 digits the sum may round differently from JSON.parse: read those as JSON would.
  return { value: end - at > 15 ? Number(text.slice(at, end)) : value, end };
}

/** The Content-Length header of the headers object text[at, end): its LAST array's first string, as JSON.parse sees it. */
function findContentLength(text: string, at: number, end: number): number | null {
  // Searched in a slice (a view, no copy): a search of the chunk's text would not stop at the line's end.
  const headers = text.slice(at, end);
  let key = -1;
  for (
    let found = headers.indexOf(contentLengthKey);
    found >= 0;
    found = headers.indexOf(contentLengthKey, found + 1)
  )
    key = found;
  const valueAt = key + contentLengthKey.length + 1;
  if (key < 0 || headers.charCodeAt(valueAt - 1) !== 34) return null;
  const digits = parseDigitRun(headers, valueAt);
  const count = digits.end - valueAt;
  return headers.charCodeAt(digits.end) === 34 && count >= 1 && count <= 15 ? digits.value : null;
}

/** toClientIp of text[at, end) as a string a record may keep (most addresses are short enough not to need a copy). */
function toOwnClientIp(line: ByteLine, at: number, end: number): string {
  const { text } = line;
  const colon = text.indexOf(':', at);
  // The common `ipv4:port` is cut at its one colon; anything else goes through toClientIp.
  if (text.charCodeAt(at) !== 91 && colon >= 0 && colon < end && text.indexOf(':', colon + 1) > end)
    return copyLineText(line, at, colon);
  const ip = toClientIp(text.slice(at, end));
  const from = ip.length < 13 ? -1 : text.indexOf(ip, at);
  return from < 0 ? ip : copyLineText(line, from, from + ip.length);
}

/** Where the client address starts: after the optional username and component, told apart by one character. */
function findClientAt(text: string, at: number): number {
  if (text.charCodeAt(at + 2) === 117) at = text.indexOf('"', at + usernameKey.length) + 1;
  if (text.charCodeAt(at + 3) === 111) at += componentPart.length;
  return at + clientKey.length;
}

/** A plain session line of either layout → its entry; undefined when JSON.parse must decide. */
function parsePlainLine(line: ByteLine): RegistryEntry | undefined {
  const { text, start, end } = line;
  const isSlog = text.startsWith(slogHead, start);
  const pattern = isSlog ? slogLine : zerologLine;
  pattern.lastIndex = start;
  if (!pattern.test(text) || pattern.lastIndex !== end) return undefined;
  const timeAt = isSlog
    ? start + slogHead.length
    : text.lastIndexOf(zerologTimeKey, end) + zerologTimeKey.length;
  const timeEnd = text.indexOf('"', timeAt);
  const tsMs = parseRfc3339Ms(text, timeAt, timeEnd);
  if (tsMs === undefined) return undefined;
  const ipAt = findClientAt(text, isSlog ? timeEnd + slogAfterTime.length : start + zerologHead.length);
  const ipEnd = text.indexOf('"', ipAt);
  const methodEnd = text.indexOf('"', ipEnd + methodKey.length);
  const pathEnd = text.indexOf('"', methodEnd + pathKey.length);
  const status = parseDigitRun(text, pathEnd + statusKey.length);
  const latencyAt = status.end + latencyKey.length;
  const latencyEnd = text.indexOf('"', latencyAt);
  const bodySize = parseDigitRun(text, latencyEnd + bodySizeKey.length);
  const headersAt = bodySize.end + headersKey.length;
  const latency = text.slice(latencyAt, latencyEnd);
  return {
    tsMs,
    clientAddress: toOwnClientIp(line, ipAt, ipEnd),
    method: text.slice(ipEnd + methodKey.length, methodEnd),
    path: copyLineText(line, methodEnd + pathKey.length, pathEnd),
    status: status.value,
    durationMs:
      parseGoDuration(
        /[^ -~]/.test(latency) ? line.bytes.toString('utf8', latencyAt, latencyEnd) : latency,
      ) ?? null,
    // The headers object ends at its first `},"`: no plain string holds a `"`.
    requestBytes: findContentLength(text, headersAt, text.indexOf('},"', headersAt)),
    responseBytes: bodySize.value,
  };
}

/** Fields read by name → the entry, or a skip or rejection. */
function toZotEntry(fields: Record<string, unknown>): LineOutcome<RegistryEntry> {
  if (fields.message !== 'HTTP API')
    return fields.message === 'HTTP API Audit' ? toSkip('audit line') : toSkip('not an HTTP line');
  const tsMs = typeof fields.time === 'string' ? parseRfc3339Ms(fields.time) : undefined;
  if (tsMs === undefined)
    return toReject(`time: expected an RFC 3339 timestamp, got ${JSON.stringify(fields.time)}`);
  const { clientIP, method, path, statusCode, latency, bodySize, headers } = fields;
  if (typeof clientIP !== 'string' || typeof method !== 'string' || typeof path !== 'string')
    return toReject('clientIP, method and path must be strings');
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode))
    return toReject(`statusCode: expected an integer, got ${JSON.stringify(statusCode)}`);
  const lengths = (headers as Record<string, unknown> | null | undefined)?.['Content-Length'];
  return toRecord({
    tsMs,
    clientAddress: toClientIp(clientIP),
    method,
    path,
    status: statusCode,
    durationMs: typeof latency === 'string' ? (parseGoDuration(latency) ?? null) : null,
    requestBytes:
      Array.isArray(lengths) && typeof lengths[0] === 'string' ? toContentLength(lengths[0]) : null,
    responseBytes: typeof bodySize === 'number' && bodySize >= 0 ? bodySize : null,
  });
}

/** One Zot log line → a session entry, or a skip (not JSON, not HTTP, audit) or a rejection (malformed). */
export function parseZotLine(line: ByteLine): LineOutcome<RegistryEntry> {
  const plain = parsePlainLine(line);
  if (plain !== undefined) return toRecord(plain);
  const outcome = parseJsonLine(line);
  return outcome.ok ? toZotEntry(outcome.record) : outcome;
}
