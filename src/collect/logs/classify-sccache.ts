// nginx WebDAV log values → SccacheRecord. GET 200/206 on a key = hit (body_bytes_sent), GET 404 on a key = miss,
// PUT 201/204 on a key = write (content_length), PROPFIND/MKCOL/OPTIONS and `.sccache_check` = overhead.
// A key path is opendal's `<root>/<prefix>/a/b/c/abc…` (sccache's normalize_key).
import type { SccacheKind, SccacheRecord } from '../types.js';
import { ParseError } from '../../shared/errors.js';
import type { LineOutcome, LogLineParser } from './line-outcome.js';
import { toRecord, toReject } from './line-outcome.js';
import type { NginxLineParser } from './parse-nginx-line.js';
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
  if (last === '.sccache_check') return { keyPrefix: segments.slice(0, -1).join('/'), isKey: false, isCheck: true };
  const [a, b, c] = segments.slice(-4, -1);
  const isKey = segments.length >= 4 && a?.length === 1 && b?.length === 1 && c?.length === 1 && last.length > 3 && last.startsWith(a + b + c);
  return isKey ? { keyPrefix: segments.slice(0, -4).join('/'), isKey, isCheck: false } : { keyPrefix: undefined, isKey: false, isCheck: false };
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

function requireIndex(parser: NginxLineParser, variables: string[]): number {
  const index = variables.map((variable) => parser.indexOf(variable)).find((found) => found >= 0);
  if (index === undefined) {
    const names = variables.map((variable) => `$${variable}`).join(' or ');
    throw new ParseError(`log_format ${parser.spec.name}`, undefined, `needs ${names}; add it to the log_format (see .builders/nginx-sccache.conf)`);
  }
  return index;
}

const isCount = (text: string) => /^\d+$/.test(text);

export function createSccacheLineParser(parser: NginxLineParser, options: SccacheLineParserOptions): LogLineParser<SccacheRecord> {
  const at = {
    msec: parser.indexOf('msec'),
    iso: requireIndex(parser, ['msec', 'time_iso8601']),
    address: requireIndex(parser, ['remote_addr']),
    method: requireIndex(parser, ['request_method']),
    uri: requireIndex(parser, ['uri', 'request_uri']),
    status: requireIndex(parser, ['status']),
    sent: requireIndex(parser, ['body_bytes_sent']),
    length: requireIndex(parser, ['content_length']),
    time: parser.indexOf('request_time'),
  };
  const addressToNode = options.addressToNode ?? {};
  const toTsMs = (values: string[]) => (at.msec >= 0 ? Math.round(Number(values[at.msec]) * 1000) : parseRfc3339Ms(values[at.iso] ?? ''));

  function toSccacheRecord(values: string[]): LineOutcome<SccacheRecord> {
    const tsMs = toTsMs(values);
    const statusText = values[at.status] ?? '';
    const sent = values[at.sent] ?? '';
    if (tsMs === undefined || !Number.isFinite(tsMs) || tsMs <= 0) return toReject('no valid timestamp ($msec / $time_iso8601)');
    if (!isCount(statusText) || !isCount(sent)) return toReject(`status/body_bytes_sent not numeric: ${JSON.stringify([statusText, sent])}`);
    const method = values[at.method] ?? '';
    const uri = values[at.uri] ?? '';
    const status = Number(statusText);
    const path = parseSccachePath(uri, options.davRoot);
    const kind = classifySccache(method, status, path);
    const length = values[at.length] ?? '';
    const record: SccacheRecord = {
      tsMs,
      clientAddress: values[at.address] ?? '',
      method,
      uri,
      status,
      kind,
      bytes: kind === 'hit' ? Number(sent) : kind === 'write' && isCount(length) ? Number(length) : 0,
      keyPrefix: path.keyPrefix,
      durationMs: at.time >= 0 ? Math.round(Number(values[at.time]) * 1000) || 0 : 0,
    };
    if (kind === 'write' && !isCount(length)) record.bytesUnknown = true;
    const node = addressToNode[record.clientAddress];
    if (node !== undefined) record.node = node;
    return toRecord(record);
  }

  return {
    parseLine(line) {
      const outcome = parser.parseValues(line);
      return outcome.ok ? toSccacheRecord(outcome.record) : outcome;
    },
    timeOfLine(line) {
      const outcome = parser.parseValues(line);
      return outcome.ok ? toTsMs(outcome.record) : undefined;
    },
  };
}
