// nginx WebDAV log values → SccacheRecord. GET 200/206 on a key = hit (body_bytes_sent), GET 404 on a key = miss,
// PUT 201/204 on a key = write (content_length), PROPFIND/MKCOL/OPTIONS and `.sccache_check` = overhead.
// A key path is opendal's `<root>/<prefix>/a/b/c/abc…` (sccache's normalize_key).
import type { SccacheKind, SccacheRecord } from '../types.js';
import { ParseError } from '../../shared/errors.js';
import type { LineOutcome, LogLineParser } from './line-outcome.js';
import { toRecord, toReject } from './line-outcome.js';
import type { NginxLineParser } from './parse-nginx-line.js';
import { createNginxBytesMatcher } from './parse-nginx-line-bytes.js';
import { decodeLine } from './byte-line.js';
import { parseRfc3339Ms } from './parse-timestamp.js';
import type { LineScanner } from '../native/line-scanner.js';
import { createSccacheChunkReader } from './read-sccache-rows.js';

export interface SccachePath {
  /** Path between the DAV root and the key (or `.sccache_check`), without slashes at either end. */
  keyPrefix: string | undefined;
  isKey: boolean;
  isCheck: boolean;
}

/** The `/` before the first of the three one-character segments before the last one (…/a/b/c/last), or undefined. */
function findKeySlash(relative: string, lastSlash: number): number | undefined {
  const cSlash = relative.lastIndexOf('/', lastSlash - 1);
  const bSlash = cSlash < 1 ? -1 : relative.lastIndexOf('/', cSlash - 1);
  if (cSlash !== lastSlash - 2 || bSlash !== cSlash - 2 || bSlash < 1) return undefined;
  const aSlash = relative.lastIndexOf('/', bSlash - 1);
  return aSlash === bSlash - 2 ? aSlash : undefined;
}

/** Splits a request URI into key prefix and key, relative to the DAV location (e.g. `/sccache/`). */
export function parseSccachePath(uri: string, davRoot: string): SccachePath {
  const query = uri.indexOf('?');
  const path = query < 0 ? uri : uri.slice(0, query);
  const relative = path.startsWith(davRoot) ? path.slice(davRoot.length) : path.replace(/^\/+/, '');
  const lastSlash = relative.lastIndexOf('/');
  const last = relative.slice(lastSlash + 1);
  if (last === '.sccache_check')
    return { keyPrefix: lastSlash < 0 ? '' : relative.slice(0, lastSlash), isKey: false, isCheck: true };
  const aSlash = lastSlash < 0 || last.length <= 3 ? undefined : findKeySlash(relative, lastSlash);
  if (aSlash === undefined || !isKeyName(relative, aSlash, last)) return notKey;
  return { keyPrefix: aSlash < 0 ? '' : relative.slice(0, aSlash), isKey: true, isCheck: false };
}

const notKey: SccachePath = Object.freeze({ keyPrefix: undefined, isKey: false, isCheck: false });

/** The key's name starts with its three one-character directories (opendal's a/b/c/abc…). */
function isKeyName(relative: string, aSlash: number, last: string): boolean {
  return (
    last.charCodeAt(0) === relative.charCodeAt(aSlash + 1) &&
    last.charCodeAt(1) === relative.charCodeAt(aSlash + 3) &&
    last.charCodeAt(2) === relative.charCodeAt(aSlash + 5)
  );
}

const overheadMethods = new Set(['PROPFIND', 'MKCOL', 'OPTIONS']);

export function classifySccache(method: string, status: number, path: SccachePath): SccacheKind {
  return toSccacheKind(method, status, path.isKey, path.isCheck);
}

/** classifySccache from the path's two flags (the native scanner reads them without a SccachePath). */
export function toSccacheKind(method: string, status: number, isKey: boolean, isCheck: boolean): SccacheKind {
  if (overheadMethods.has(method) || isCheck) return 'overhead';
  if (!isKey) return 'other';
  if (method === 'GET' && (status === 200 || status === 206)) return 'hit';
  if (method === 'GET' && status === 404) return 'miss';
  if (method === 'PUT' && (status === 201 || status === 204)) return 'write';
  return 'other';
}

export interface SccacheLineParserOptions {
  /** DAV location the keys live under, e.g. `/sccache/` (the conf's `location`). */
  davRoot: string;
  addressToNode?: Readonly<Record<string, string>>;
  /** The native line scanner (loadLineScanner); without it lines are read by the JavaScript paths. */
  scanner?: LineScanner | undefined;
  /**
   * `all` (default): every record is a new object the caller may keep. `writes`: only lines that can be writes
   * (PUT) get records of their own; every other record is a scratch object overwritten by the next line, for a
   * caller that only counts it (`mode: 'aggregate'`). A scratch record read by the native scanner has uri ''.
   */
  recordsKept?: 'all' | 'writes';
}

function requireIndex(parser: NginxLineParser, variables: string[]): number {
  const index = variables.map((variable) => parser.indexOf(variable)).find((found) => found >= 0);
  if (index === undefined) {
    const names = variables.map((variable) => `$${variable}`).join(' or ');
    throw new ParseError(
      `log_format ${parser.spec.name}`,
      undefined,
      `needs ${names}; add it to the log_format (see .builders/nginx-sccache.conf)`,
    );
  }
  return index;
}

function isCount(text: string): boolean {
  if (text === '') return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** What one line's record is made of, read by the template walk or by the native scanner (read-sccache-rows.ts). */
export interface SccacheRecordParts {
  tsMs: number;
  clientAddress: string;
  method: string;
  uri: string;
  status: number;
  sentBytes: number;
  /** The request's Content-Length, undefined when it is not a count (absent or empty). */
  lengthBytes: number | undefined;
  keyPrefix: string | undefined;
  isKey: boolean;
  isCheck: boolean;
  durationMs: number;
}

/** Parts with every field present, to be filled in (one shape for every line). */
export const createEmptySccacheParts = (): SccacheRecordParts => ({
  tsMs: 0,
  clientAddress: '',
  method: '',
  uri: '',
  status: 0,
  sentBytes: 0,
  lengthBytes: undefined,
  keyPrefix: undefined,
  isKey: false,
  isCheck: false,
  durationMs: 0,
});

/** The record of a line's parts: its kind, and bytes read on a hit or written on a write. */
export function buildSccacheRecord(parts: SccacheRecordParts): SccacheRecord {
  const kind = toSccacheKind(parts.method, parts.status, parts.isKey, parts.isCheck);
  const record: SccacheRecord = {
    tsMs: parts.tsMs,
    clientAddress: parts.clientAddress,
    method: parts.method,
    uri: parts.uri,
    status: parts.status,
    kind,
    bytes: kind === 'hit' ? parts.sentBytes : kind === 'write' ? (parts.lengthBytes ?? 0) : 0,
    keyPrefix: parts.keyPrefix,
    durationMs: parts.durationMs,
  };
  if (kind === 'write' && parts.lengthBytes === undefined) record.bytesUnknown = true;
  return record;
}

/** Only a PUT can be a write (isSccacheWrite): every other line may become a scratch record. */
export const mayWriteSccache = (method: string): boolean => method === 'PUT';

/** buildSccacheRecord into `record` in place, for a line that cannot be a write (no bytesUnknown to set). */
function fillSccacheRecord(parts: SccacheRecordParts, record: SccacheRecord): SccacheRecord {
  const kind = toSccacheKind(parts.method, parts.status, parts.isKey, parts.isCheck);
  record.tsMs = parts.tsMs;
  record.clientAddress = parts.clientAddress;
  record.method = parts.method;
  record.uri = parts.uri;
  record.status = parts.status;
  record.kind = kind;
  record.bytes = kind === 'hit' ? parts.sentBytes : 0;
  record.keyPrefix = parts.keyPrefix;
  record.durationMs = parts.durationMs;
  return record;
}

/**
 * The outcome of a line's parts under `recordsKept: 'writes'`: a record of its own for a possible write, else one of
 * two scratch records (with a node, without one: neither changes shape) and one outcome, overwritten by the next line.
 */
function createTransientSccacheOutcome(
  toNodeRecord: (parts: SccacheRecordParts) => LineOutcome<SccacheRecord>,
  nodeOf: (address: string) => string | undefined,
): (parts: SccacheRecordParts) => LineOutcome<SccacheRecord> {
  const empty = () => buildSccacheRecord(createEmptySccacheParts());
  const plain = empty();
  const withNode = { ...empty(), node: '' };
  const outcome: { ok: true; record: SccacheRecord } = { ok: true, record: plain };
  return (parts) => {
    if (mayWriteSccache(parts.method)) return toNodeRecord(parts);
    const node = nodeOf(parts.clientAddress);
    if (node === undefined) outcome.record = fillSccacheRecord(parts, plain);
    else {
      outcome.record = fillSccacheRecord(parts, withNode);
      withNode.node = node;
    }
    return outcome;
  };
}

export function createSccacheLineParser(
  parser: NginxLineParser,
  options: SccacheLineParserOptions,
): LogLineParser<SccacheRecord> {
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
  // A Map: looking a fresh string up as an object key would intern it first, on every line.
  const addressToNode = new Map(Object.entries(options.addressToNode ?? {}));
  const toTsMs = (values: string[]) =>
    at.msec >= 0 ? Math.round(Number(values[at.msec]) * 1000) : parseRfc3339Ms(values[at.iso] ?? '');

  const nodeOf = (address: string) => (addressToNode.size === 0 ? undefined : addressToNode.get(address));
  const toOwnRecord = (parts: SccacheRecordParts): LineOutcome<SccacheRecord> => {
    const record = buildSccacheRecord(parts);
    const node = nodeOf(record.clientAddress);
    if (node !== undefined) record.node = node;
    return toRecord(record);
  };
  const toNodeRecord =
    options.recordsKept === 'writes' ? createTransientSccacheOutcome(toOwnRecord, nodeOf) : toOwnRecord;

  function toSccacheRecord(values: string[]): LineOutcome<SccacheRecord> {
    const tsMs = toTsMs(values);
    const statusText = values[at.status] ?? '';
    const sent = values[at.sent] ?? '';
    if (tsMs === undefined || !Number.isFinite(tsMs) || tsMs <= 0)
      return toReject('no valid timestamp ($msec / $time_iso8601)');
    if (!isCount(statusText) || !isCount(sent))
      return toReject(`status/body_bytes_sent not numeric: ${JSON.stringify([statusText, sent])}`);
    const uri = values[at.uri] ?? '';
    const path = parseSccachePath(uri, options.davRoot);
    const length = values[at.length] ?? '';
    return toNodeRecord({
      tsMs,
      clientAddress: values[at.address] ?? '',
      method: values[at.method] ?? '',
      uri,
      status: Number(statusText),
      sentBytes: Number(sent),
      lengthBytes: isCount(length) ? Number(length) : undefined,
      keyPrefix: path.keyPrefix,
      isKey: path.isKey,
      isCheck: path.isCheck,
      durationMs: at.time >= 0 ? Math.round(Number(values[at.time]) * 1000) || 0 : 0,
    });
  }

  const matchBytes = createNginxBytesMatcher(parser.spec, {
    usedFields: Object.values(at).filter((index) => index >= 0),
    keptFields: [at.address, at.method, at.uri],
  });
  const parseLine = (line: string) => {
    const outcome = parser.parseValues(line);
    return outcome.ok ? toSccacheRecord(outcome.record) : outcome;
  };
  const chunkReader =
    options.scanner === undefined
      ? undefined
      : createSccacheChunkReader({
          scanner: options.scanner,
          spec: parser.spec,
          at,
          davRoot: options.davRoot,
          toNodeRecord,
          parseLine,
          countedOnlyLean: options.recordsKept === 'writes',
        });
  return {
    parseLine,
    chunkReader,
    parseBytes(line) {
      const values = matchBytes(line);
      return values === undefined ? parseLine(decodeLine(line)) : toSccacheRecord(values);
    },
    timeOfLine(line) {
      const outcome = parser.parseValues(line);
      return outcome.ok ? toTsMs(outcome.record) : undefined;
    },
  };
}
