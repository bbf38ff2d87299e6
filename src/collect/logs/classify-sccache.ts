// nginx WebDAV log values → SccacheRecord. GET 200/206 on a key = hit (body_bytes_sent), GET 404 on a key = miss,
// PUT 201/204 on a key = write (content_length), PROPFIND/MKCOL/OPTIONS and `.sccache_check` = overhead.
// A key path is opendal's `<root>/<prefix>/a/b/c/abc…` (sccache's normalize_key).
import type { SccacheKind, SccacheRecord } from '../types.js';
import { ParseError } from '../../shared/errors.js';
import type { ByteLine } from './byte-line.js';
import { toByteLine } from './byte-line.js';
import type { LineOutcome, LogLineParser } from './line-outcome.js';
import { toRecord, toReject } from './line-outcome.js';
import { createNginxLineParser, type NginxValue } from './parse-nginx-line.js';
import type { LogFormatSpec } from './parse-log-format.js';
import { parseRfc3339Ms } from './parse-timestamp.js';

interface SccachePath {
  /** Path between the DAV root and the key (or `.sccache_check`), without slashes at either end. */
  keyPrefix: string | undefined;
  isKey: boolean;
  isCheck: boolean;
}

// opendal's key layout: `[prefix/]a/b/c/abc…`, where the name starts with its three one-character directories.
const keyPath = /^(?:(.*)\/)?([^/])\/([^/])\/([^/])\/\2\3\4[^/]+$/;

/** Splits a request URI into key prefix and key, relative to the DAV location (e.g. `/sccache/`). @internal */
export function parseSccachePath(uri: string, davRoot: string): SccachePath {
  const query = uri.indexOf('?');
  const path = query < 0 ? uri : uri.slice(0, query);
  const relative = path.startsWith(davRoot) ? path.slice(davRoot.length) : path.replace(/^\/+/, '');
  const lastSlash = relative.lastIndexOf('/');
  if (relative.slice(lastSlash + 1) === '.sccache_check')
    return { keyPrefix: lastSlash < 0 ? '' : relative.slice(0, lastSlash), isKey: false, isCheck: true };
  const key = keyPath.exec(relative);
  return key === null
    ? { keyPrefix: undefined, isKey: false, isCheck: false }
    : { keyPrefix: key[1] ?? '', isKey: true, isCheck: false };
}

const overheadMethods = new Set(['PROPFIND', 'MKCOL', 'OPTIONS']);

/** @internal */
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

/** The first of `variables` the log_format has; a ParseError naming the fix when it has none. */
function requireVariable(spec: LogFormatSpec, variables: string[]): string {
  const found = variables.find((variable) => spec.fields.some((field) => field.variable === variable));
  if (found === undefined)
    throw new ParseError(
      `log_format ${spec.name}`,
      undefined,
      `needs ${variables.map((variable) => `$${variable}`).join(' or ')}; add it to the log_format (see .builders/nginx-sccache.conf)`,
    );
  return found;
}

/** A byte count or status: a non-negative integer, as a JSON number or a string of digits. */
function toCount(value: NginxValue | undefined): number | undefined {
  const count =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : Number.NaN;
  return Number.isSafeInteger(count) && count >= 0 ? count : undefined;
}

/** `$msec` (seconds with a fraction) or `$time_iso8601` → epoch ms. */
function toTsMs(value: NginxValue | undefined, isMsec: boolean): number | undefined {
  const ms = isMsec
    ? Math.round(Number(value) * 1000)
    : typeof value === 'string'
      ? parseRfc3339Ms(value)
      : undefined;
  return ms !== undefined && Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

export function createSccacheLineParser(
  spec: LogFormatSpec,
  options: SccacheLineParserOptions,
): LogLineParser<SccacheRecord> {
  const time = requireVariable(spec, ['msec', 'time_iso8601']);
  const variables = [
    time,
    requireVariable(spec, ['remote_addr']),
    requireVariable(spec, ['request_method']),
    requireVariable(spec, ['uri', 'request_uri']),
    requireVariable(spec, ['status']),
    requireVariable(spec, ['body_bytes_sent']),
    requireVariable(spec, ['content_length']),
    'request_time',
  ];
  const parseValues = createNginxLineParser(spec, variables);
  const addressToNode = new Map(Object.entries(options.addressToNode ?? {}));

  function toSccacheRecord(values: (NginxValue | undefined)[]): LineOutcome<SccacheRecord> {
    const [tsValue, address, method, uri, statusValue, sentValue, lengthValue, duration] = values;
    const tsMs = toTsMs(tsValue, time === 'msec');
    if (tsMs === undefined) return toReject('no valid timestamp ($msec / $time_iso8601)');
    const status = toCount(statusValue);
    const sent = toCount(sentValue);
    if (status === undefined || sent === undefined)
      return toReject(`status/body_bytes_sent not numeric: ${JSON.stringify([statusValue, sentValue])}`);
    const path = parseSccachePath(String(uri), options.davRoot);
    const kind = classifySccache(String(method), status, path);
    const length = toCount(lengthValue);
    const record: SccacheRecord = {
      tsMs,
      clientAddress: String(address),
      method: String(method),
      uri: String(uri),
      status,
      kind,
      bytes: kind === 'hit' ? sent : kind === 'write' ? (length ?? 0) : 0,
      keyPrefix: path.keyPrefix,
      durationMs: Math.round(Number(duration) * 1000) || 0,
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
      return outcome.ok ? toTsMs(outcome.record[0], time === 'msec') : undefined;
    },
  };
}
