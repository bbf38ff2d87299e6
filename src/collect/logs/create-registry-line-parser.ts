// A stateful line parser for one registry log stream (the record builder remembers upload sessions between lines).
import type { RegistryRecord } from '../types.js';
import { toRegistrySizeKey } from '../../artifacts/index.js';
import { createRegistryRecordBuilder } from './build-registry-record.js';
import { timeOfJsonLine } from './json-fields.js';
import type { LogLineParser } from './line-outcome.js';
import { toRecord } from './line-outcome.js';
import { parseDistributionLine } from './parse-distribution-line.js';
import { parseZotLine } from './parse-zot-line.js';

export type RegistryLogFormat = 'zot' | 'distribution';

export interface RegistryLineParserOptions {
  format: RegistryLogFormat;
  /** Globs on `<repository>:<tag>` marking cache exports; default `['*\/cache:*']`. */
  cachePatterns?: readonly string[];
  /** Client IP → node name. */
  addressToNode?: Readonly<Record<string, string>>;
  /**
   * Sizes the log does not say (registry-sizes.json: `<repository>@<reference>` → bytes), filled into writes whose
   * size is unknown. A size the log does say is kept.
   */
  sizes?: Readonly<Record<string, number>> | undefined;
}

const defaultCachePatterns: readonly string[] = ['*/cache:*'];

const parseEntry = { zot: parseZotLine, distribution: parseDistributionLine } as const;

export function createRegistryLineParser(options: RegistryLineParserOptions): LogLineParser<RegistryRecord> {
  const parse = parseEntry[options.format];
  const build = createRegistryRecordBuilder({ cachePatterns: options.cachePatterns ?? defaultCachePatterns });
  const addressToNode = new Map(Object.entries(options.addressToNode ?? {}));
  return {
    timeOfLine: timeOfJsonLine,
    parseLine(line) {
      const outcome = parse(line);
      if (!outcome.ok) return outcome;
      const record = build(outcome.record);
      if (isUnsizedWrite(record) && options.sizes !== undefined) {
        const size = options.sizes[toRegistrySizeKey(record.repository ?? '', record.reference ?? '')];
        if (size !== undefined) record.bytes = size;
      }
      const node = addressToNode.get(record.clientAddress);
      if (node !== undefined) record.node = node;
      return toRecord(record);
    },
  };
}

function isUnsizedWrite(record: RegistryRecord): boolean {
  return record.bytes === null && (record.kind === 'blob-write' || record.kind === 'manifest-write');
}
