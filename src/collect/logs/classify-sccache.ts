// nginx WebDAV log values → SccacheRecord. GET 200/206 on a key = hit (body_bytes_sent), GET 404 on a key = miss,
// PUT 201/204 on a key = write (content_length), PROPFIND/MKCOL/OPTIONS and `.sccache_check` = overhead.
// A key path is opendal's `<root>/<prefix>/a/b/c/abc…` (sccache's normalize_key).
import type { SccacheKind, SccacheRecord } from '../types.js';
import { ParseError } from '../../shared/errors.js';
import type { ByteLine } from './byte-line.js';
import { toByteLine } from './byte-line.js';
import type { LineOutcome, LogLineParser } from './line-outcome.js';
import { toRecord, toReject } from './line-outcome.js';
import { createNginxLineParser, type NginxValues } from './parse-nginx-line.js';
import type { LogFormatSpec } from './parse-log-format.js';
import { parseRfc3339Ms } from './parse-timestamp.js';

export interface SccachePath {
  /** Path between the DAV root and the key (or `.sccache_check`), without slashes at either end. */
  keyPrefix: string | undefined;
  isKey: boolean;
  isCheck: boolean;
}

/** Splits a request URI into key prefix and key, relative to the DAV location (e.g. `/sccache/`). */
export function parseSccachePath(uri: string, davRoot: string): SccachePath {
  const path = uri.split('?')[0] ?? '';
  const relative = path.startsWith(davRoot) ? path.slice(davRoot.length) : path.replace(/^\/+/, '');
  const segments = relative.split('/');
  const last = segments[segments.length - 1] ?? '';
  if (last === '.sccache_check')
    return { keyPrefix: segments.slice(0, -1).join('/'), isKey: false, isCheck: true };
  const [a, b, c] = segments.slice(-4, -1);
  const isKey =
    segments.length >= 4 &&
    a?.length === 1 &&
    b?.length === 1 &&
    c?.length === 1 &&
    last.length > 3 &&
    last.startsWith(a + b + c);
  return isKey
    ? { keyPrefix: segments.slice(0, -4).join('/'), isKey, isCheck: false }
    : { keyPrefix: undefined, isKey: false, isCheck: false };
}

const overheadMethods = new Set(['PROPFIND', 'MKCOL', 'OPTIONS']);

export function classifySccache(method: string, status: number, path: SccachePath): SccacheKind {
  if (overheadMethods.has(method) || path.isCheck) return 'overhead';
  if (!path.isKey) return 'other';
  if (method === 'GET' && (status === 200 || status === 206)) return 'hit';
  if (method === 'GET' && status === 404) return 'miss';
  if (method === 'PUT' && (status === 201 || status === 204)) return 'write';
  return 'other';
}

export interface SccacheLineParserOptions {
  /** DAV location the keys live under, e.g. `/sccache/` (the conf's `location`). */
  davRoot: string;
  addressToNode?: Readonly<Record<string, string>>;
}

/** The index of the first of `variables` the log_format has; a ParseError naming the fix when it has none. */
function requireIndex(spec: LogFormatSpec, variables: string[]): number {
  const index = spec.fields.findIndex((field) => variables.includes(field.variable));
  if (index < 0)
    throw new ParseError(
      `log_format ${spec.name}`,
      undefined,
      `needs ${variables.map((variable) => `$${variable}`).join(' or ')}; add it to the log_format (see .builders/nginx-sccache.conf)`,
    );
  return index;
}

/** A byte count: a non-negative integer, however JSON wrote it. */
function toCount(text: string | undefined): number | undefined {
  const value = text === undefined || text === '' ? Number.NaN : Number(text);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

export function createSccacheLineParser(
  spec: LogFormatSpec,
  options: SccacheLineParserOptions,
): LogLineParser<SccacheRecord> {
  const parseValues = createNginxLineParser(spec);
  const msec = spec.fields.findIndex((field) => field.variable === 'msec');
  const at = {
    time: msec >= 0 ? msec : requireIndex(spec, ['time_iso8601']),
    address: requireIndex(spec, ['remote_addr']),
    method: requireIndex(spec, ['request_method']),
    uri: requireIndex(spec, ['uri', 'request_uri']),
    status: requireIndex(spec, ['status']),
    sent: requireIndex(spec, ['body_bytes_sent']),
    length: requireIndex(spec, ['content_length']),
    duration: spec.fields.findIndex((field) => field.variable === 'request_time'),
  };
  const addressToNode = new Map(Object.entries(options.addressToNode ?? {}));
  const toTsMs = (values: NginxValues) =>
    msec >= 0 ? Math.round(Number(values[msec]) * 1000) : parseRfc3339Ms(values[at.time] ?? '');

  function toSccacheRecord(values: NginxValues): LineOutcome<SccacheRecord> {
    const tsMs = toTsMs(values);
    if (tsMs === undefined || !Number.isFinite(tsMs) || tsMs <= 0)
      return toReject('no valid timestamp ($msec / $time_iso8601)');
    const status = toCount(values[at.status]);
    const sent = toCount(values[at.sent]);
    if (status === undefined || sent === undefined)
      return toReject(
        `status/body_bytes_sent not numeric: ${JSON.stringify([values[at.status], values[at.sent]])}`,
      );
    const method = values[at.method] ?? '';
    const uri = values[at.uri] ?? '';
    const path = parseSccachePath(uri, options.davRoot);
    const kind = classifySccache(method, status, path);
    const length = toCount(values[at.length]);
    const record: SccacheRecord = {
      tsMs,
      clientAddress: values[at.address] ?? '',
      method,
      uri,
      status,
      kind,
      bytes: kind === 'hit' ? sent : kind === 'write' ? (length ?? 0) : 0,
      keyPrefix: path.keyPrefix,
      durationMs: at.duration >= 0 ? Math.round(Number(values[at.duration]) * 1000) || 0 : 0,
    };
    if (kind === 'write' && length === undefined) record.bytesUnknown = true;
    const node = addressToNode.get(record.clientAddress);
    if (node !== undefined) record.node = node;
    return toRecord(record);
  }

  const parseLine = (line: ByteLine) => {
    const outcome = parseValues(line);
    return outcome.ok ? toSccacheRecord(outcome.record) : outcome;
  };
  return {
    parseLine,
    timeOfLine(text) {
      const outcome = parseValues(toByteLine(text));
      return outcome.ok ? toTsMs(outcome.record) : undefined;
    },
  };
}
