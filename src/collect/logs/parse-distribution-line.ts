// The CNCF Distribution registry's JSON log (Debian's docker-registry 2.8, `log.formatter: json`). One
// `"msg":"response completed"` (or `… with error`) line per request. Its lines carry no request size, only
// `http.response.written`, so written sizes stay null here (see fetchBlobSizes). The access log lines it writes
// beside them (Apache combined format) are not JSON and are skipped.
import {
  findValueStart,
  parseJsonObject,
  readJsonNumber,
  readStringField,
  toKeyPattern,
} from './json-fields.js';
import type { LineOutcome } from './line-outcome.js';
import { toRecord, toReject, toSkip } from './line-outcome.js';
import { parseGoDuration } from './parse-go-duration.js';
import { parseRfc3339Ms } from './parse-timestamp.js';
import type { RegistryEntry } from './registry-entry.js';
import { toClientIp } from './registry-entry.js';

const key = {
  time: toKeyPattern('time'),
  method: toKeyPattern('http.request.method'),
  uri: toKeyPattern('http.request.uri'),
  remoteaddr: toKeyPattern('http.request.remoteaddr'),
  status: toKeyPattern('http.response.status'),
  duration: toKeyPattern('http.response.duration'),
  written: toKeyPattern('http.response.written'),
};
const completedMessage = '"msg":"response completed';

interface DistributionFields {
  time: unknown;
  method: unknown;
  uri: unknown;
  remoteaddr: unknown;
  status: unknown;
  duration: unknown;
  written: unknown;
}

function toDistributionEntry(fields: DistributionFields): LineOutcome<RegistryEntry> {
  const tsMs = typeof fields.time === 'string' ? parseRfc3339Ms(fields.time) : undefined;
  if (tsMs === undefined)
    return toReject(`time: expected an RFC 3339 timestamp, got ${JSON.stringify(fields.time)}`);
  const { method, uri, remoteaddr, status } = fields;
  if (typeof method !== 'string' || typeof uri !== 'string' || typeof remoteaddr !== 'string') {
    return toReject('http.request.method, http.request.uri and http.request.remoteaddr must be strings');
  }
  if (typeof status !== 'number' || !Number.isInteger(status))
    return toReject(`http.response.status: expected an integer, got ${JSON.stringify(status)}`);
  return toRecord({
    tsMs,
    clientAddress: toClientIp(remoteaddr),
    method,
    path: uri,
    status,
    durationMs: typeof fields.duration === 'string' ? (parseGoDuration(fields.duration) ?? null) : null,
    requestBytes: null,
    responseBytes: typeof fields.written === 'number' && fields.written >= 0 ? fields.written : null,
  });
}

function readFast(line: string): DistributionFields | undefined {
  const fields = {
    time: readStringField(line, key.time),
    method: readStringField(line, key.method),
    uri: readStringField(line, key.uri),
    remoteaddr: readStringField(line, key.remoteaddr),
    status: readJsonNumber(line, findValueStart(line, key.status)),
    duration: readStringField(line, key.duration),
    written: readJsonNumber(line, findValueStart(line, key.written)),
  };
  const complete = fields.time !== undefined && fields.method !== undefined && fields.uri !== undefined;
  return complete && fields.remoteaddr !== undefined && fields.status !== undefined ? fields : undefined;
}

function readWithJsonParse(object: Record<string, unknown>): DistributionFields {
  return {
    time: object.time,
    method: object['http.request.method'],
    uri: object['http.request.uri'],
    remoteaddr: object['http.request.remoteaddr'],
    status: object['http.response.status'],
    duration: object['http.response.duration'],
    written: object['http.response.written'],
  };
}

/** One docker-registry log line → an entry, or a skip (non-JSON, not a completed request) or rejection. */
export function parseDistributionLine(line: string): LineOutcome<RegistryEntry> {
  if (line.charCodeAt(0) !== 123) return line.trim() === '' ? toSkip('blank line') : toSkip('not JSON');
  const fast = line.includes(completedMessage) && line.trimEnd().endsWith('}') ? readFast(line) : undefined;
  if (fast !== undefined) return toDistributionEntry(fast);
  const object = parseJsonObject(line);
  if (object === undefined)
    return line.trimEnd().endsWith('}') ? toReject('invalid JSON') : toReject('truncated JSON line');
  if (typeof object.msg !== 'string' || !object.msg.startsWith('response completed'))
    return toSkip('not an HTTP response line');
  return toDistributionEntry(readWithJsonParse(object));
}

export function timeOfDistributionLine(line: string): number | undefined {
  const time = readStringField(line, key.time);
  return time === undefined ? undefined : parseRfc3339Ms(time);
}
