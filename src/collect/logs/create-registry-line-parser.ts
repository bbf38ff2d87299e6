// A stateful line parser for one registry log stream (the builder remembers upload sessions between lines).
// Zot lines go through the native scanner when given one (read-zot-rows.ts), else through a fast path on bytes
// (parseZotEntryBytes); lines either declines go through the exact parsers.
import type { RegistryRecord } from '../types.js';
import type { ByteLine } from './byte-line.js';
import { decodeLine } from './byte-line.js';
import type { RegistryRecordBuilder } from './build-registry-record.js';
import { createEmptyRegistryRecord, createRegistryRecordBuilder } from './build-registry-record.js';
import type { LineOutcome, LogLineParser } from './line-outcome.js';
import { toRecord } from './line-outcome.js';
import { parseDistributionLine, timeOfDistributionLine } from './parse-distribution-line.js';
import { createEntry, parseZotEntryBytes, readZotEntryBytes } from './parse-zot-line-bytes.js';
import { parseZotLine, timeOfZotLine } from './parse-zot-line.js';
import type { RegistryEntry } from './registry-entry.js';
import type { RegistryRoute } from './parse-registry-path.js';
import type { LineScanner } from '../native/line-scanner.js';
import { createZotChunkReader } from './read-zot-rows.js';

export type RegistryLogFormat = 'zot' | 'distribution';

export interface RegistryLineParserOptions {
  format: RegistryLogFormat;
  /** Globs on `<repository>:<tag>` marking cache exports; default `['*\/cache:*']`. */
  cachePatterns?: readonly string[];
  /** Client IP → node name. */
  addressToNode?: Readonly<Record<string, string>>;
  /**
   * `all` (default): every record is a new object the caller may keep. `writes`: only blob and manifest writes
   * (isRegistryWrite) are; every other record is one scratch object overwritten by the next line, for a caller that
   * only counts them (the readers' `mode: 'aggregate'`). Reading a line then allocates almost nothing. Such a
   * scratch record holds what the summaries read; through the native scanner its path and blob digest are ''.
   */
  recordsKept?: 'all' | 'writes';
  /** The native line scanner (loadLineScanner); without it Zot lines are read by the JavaScript paths. */
  scanner?: LineScanner | undefined;
}

export const defaultCachePatterns: readonly string[] = ['*/cache:*'];

interface RegistryFormat {
  parse: (line: string) => LineOutcome<RegistryEntry>;
  timeOf: (line: string) => number | undefined;
  /** A fast path on bytes; undefined means "use parse on the decoded line". */
  parseBytes?: (line: ByteLine) => RegistryEntry | undefined;
  /** The same into a scratch entry (paths copied only where copyPath(method)); false means "use parse". */
  readBytes?: (line: ByteLine, entry: RegistryEntry, copyPath: (method: string) => boolean) => boolean;
}

const formats: Record<RegistryLogFormat, RegistryFormat> = {
  zot: {
    parse: parseZotLine,
    timeOf: timeOfZotLine,
    parseBytes: parseZotEntryBytes,
    readBytes: readZotEntryBytes,
  },
  distribution: { parse: parseDistributionLine, timeOf: timeOfDistributionLine },
};

/** Methods whose records can be writes (isRegistryWrite): a finalising PUT, a monolithic POST, a manifest PUT. */
const mayWrite = (method: string) => method === 'PUT' || method === 'POST';

export function createRegistryLineParser(options: RegistryLineParserOptions): LogLineParser<RegistryRecord> {
  const format = formats[options.format];
  const build = createRegistryRecordBuilder({ cachePatterns: options.cachePatterns ?? defaultCachePatterns });
  // A Map: looking a fresh string up as an object key would intern it first, on every line.
  const addressToNode = new Map(Object.entries(options.addressToNode ?? {}));
  const nodeOf = (address: string) => (addressToNode.size === 0 ? undefined : addressToNode.get(address));
  const toNodeRecord = (entry: RegistryEntry, route?: RegistryRoute): LineOutcome<RegistryRecord> => {
    const record = build(entry, undefined, route);
    const node = nodeOf(record.clientAddress);
    if (node !== undefined) record.node = node;
    return toRecord(record);
  };
  const toOutcome = (outcome: LineOutcome<RegistryEntry>) =>
    outcome.ok ? toNodeRecord(outcome.record) : outcome;
  const parseLine = (line: string) => toOutcome(format.parse(line));
  const toEntryOutcome =
    options.recordsKept === 'writes' ? createTransientOutcome({ build, nodeOf, toNodeRecord }) : toNodeRecord;
  const parseBytes =
    options.recordsKept === 'writes' && format.readBytes !== undefined
      ? createTransientParseBytes({ readBytes: format.readBytes, toEntryOutcome, parseLine })
      : (line: ByteLine) => {
          const entry = format.parseBytes?.(line);
          return entry === undefined ? parseLine(decodeLine(line)) : toNodeRecord(entry);
        };
  const chunkReader =
    options.format === 'zot' && options.scanner !== undefined
      ? createZotChunkReader({
          scanner: options.scanner,
          toEntryOutcome,
          parseLine,
          countedOnlyLean: options.recordsKept === 'writes',
        })
      : undefined;
  return { parseLine, timeOfLine: format.timeOf, parseBytes, chunkReader };
}

interface TransientParts {
  build: RegistryRecordBuilder;
  nodeOf: (address: string) => string | undefined;
  /** A record of its own (what `all` gives). */
  toNodeRecord: (entry: RegistryEntry, route?: RegistryRoute) => LineOutcome<RegistryRecord>;
}

/**
 * The outcome of an entry under `recordsKept: 'writes'`: one scratch record (one with a node, one without, so
 * neither changes shape) and outcome for entries that cannot be writes (methods other than PUT and POST); the
 * others are new records, as in `all`.
 */
function createTransientOutcome(parts: TransientParts): EntryOutcome {
  const { build, nodeOf, toNodeRecord } = parts;
  const plain = createEmptyRegistryRecord();
  const withNode = { ...createEmptyRegistryRecord(), node: '' };
  const outcome: { ok: true; record: RegistryRecord } = { ok: true, record: plain };
  return (entry, route) => {
    // Possibly a write: a record of its own (strings copied), whatever it turns out to be.
    if (mayWrite(entry.method)) return toNodeRecord(entry, route);
    const node = nodeOf(entry.clientAddress);
    if (node === undefined) outcome.record = build(entry, plain, route);
    else {
      outcome.record = build(entry, withNode, route);
      withNode.node = node;
    }
    return outcome;
  };
}

/** An entry (and its route, when known) → its outcome: a record of its own, or a scratch one (`writes`). */
export type EntryOutcome = (entry: RegistryEntry, route?: RegistryRoute) => LineOutcome<RegistryRecord>;

/** The bytes path of `recordsKept: 'writes'`: one scratch entry; paths are copied only for possible writes. */
function createTransientParseBytes(parts: {
  readBytes: NonNullable<RegistryFormat['readBytes']>;
  toEntryOutcome: EntryOutcome;
  parseLine: (line: string) => LineOutcome<RegistryRecord>;
}): (line: ByteLine) => LineOutcome<RegistryRecord> {
  const { readBytes, toEntryOutcome, parseLine } = parts;
  const entry = createEntry();
  return (line) => (readBytes(line, entry, mayWrite) ? toEntryOutcome(entry) : parseLine(decodeLine(line)));
}
