// A stateful line parser for one registry log stream (the builder remembers upload sessions between lines).
// Zot lines have a fast path on bytes (parseZotEntryBytes); lines it does not take go through the exact parsers.
import type { RegistryRecord } from '../types.js';
import type { ByteLine } from './byte-line.js';
import { decodeLine } from './byte-line.js';
import { createRegistryRecordBuilder } from './build-registry-record.js';
import type { LineOutcome, LogLineParser } from './line-outcome.js';
import { toRecord } from './line-outcome.js';
import { parseDistributionLine, timeOfDistributionLine } from './parse-distribution-line.js';
import { parseZotEntryBytes } from './parse-zot-line-bytes.js';
import { parseZotLine, timeOfZotLine } from './parse-zot-line.js';
import type { RegistryEntry } from './registry-entry.js';

export type RegistryLogFormat = 'zot' | 'distribution';

export interface RegistryLineParserOptions {
  format: RegistryLogFormat;
  /** Globs on `<repository>:<tag>` marking cache exports; default `['*\/cache:*']`. */
  cachePatterns?: readonly string[];
  /** Client IP → node name. */
  addressToNode?: Readonly<Record<string, string>>;
}

export const defaultCachePatterns: readonly string[] = ['*/cache:*'];

interface RegistryFormat {
  parse: (line: string) => LineOutcome<RegistryEntry>;
  timeOf: (line: string) => number | undefined;
  /** A fast path on bytes; undefined means "use parse on the decoded line". */
  parseBytes?: (line: ByteLine) => RegistryEntry | undefined;
}

const formats: Record<RegistryLogFormat, RegistryFormat> = {
  zot: { parse: parseZotLine, timeOf: timeOfZotLine, parseBytes: parseZotEntryBytes },
  distribution: { parse: parseDistributionLine, timeOf: timeOfDistributionLine },
};

export function createRegistryLineParser(options: RegistryLineParserOptions): LogLineParser<RegistryRecord> {
  const format = formats[options.format];
  const build = createRegistryRecordBuilder({ cachePatterns: options.cachePatterns ?? defaultCachePatterns });
  // A Map: looking a fresh string up as an object key would intern it first, on every line.
  const addressToNode = new Map(Object.entries(options.addressToNode ?? {}));
  const toNodeRecord = (entry: RegistryEntry): LineOutcome<RegistryRecord> => {
    const record = build(entry);
    const node = addressToNode.size === 0 ? undefined : addressToNode.get(record.clientAddress);
    if (node !== undefined) record.node = node;
    return toRecord(record);
  };
  const toOutcome = (outcome: LineOutcome<RegistryEntry>) =>
    outcome.ok ? toNodeRecord(outcome.record) : outcome;
  const parseLine = (line: string) => toOutcome(format.parse(line));
  return {
    parseLine,
    timeOfLine: format.timeOf,
    parseBytes(line) {
      const entry = format.parseBytes?.(line);
      return entry === undefined ? parseLine(decodeLine(line)) : toNodeRecord(entry);
    },
  };
}
