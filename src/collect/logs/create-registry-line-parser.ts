// A stateful line parser for one registry log stream (the builder remembers upload sessions between lines).
import type { RegistryRecord } from '../types.js';
import { createRegistryRecordBuilder } from './build-registry-record.js';
import type { LineOutcome, LogLineParser } from './line-outcome.js';
import { toRecord } from './line-outcome.js';
import { parseDistributionLine, timeOfDistributionLine } from './parse-distribution-line.js';
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

const formats: Record<RegistryLogFormat, { parse: (line: string) => LineOutcome<RegistryEntry>; timeOf: (line: string) => number | undefined }> = {
  zot: { parse: parseZotLine, timeOf: timeOfZotLine },
  distribution: { parse: parseDistributionLine, timeOf: timeOfDistributionLine },
};

export function createRegistryLineParser(options: RegistryLineParserOptions): LogLineParser<RegistryRecord> {
  const { parse, timeOf } = formats[options.format];
  const build = createRegistryRecordBuilder({ cachePatterns: options.cachePatterns ?? defaultCachePatterns });
  const addressToNode = options.addressToNode ?? {};
  return {
    parseLine(line) {
      const outcome = parse(line);
      if (!outcome.ok) return outcome;
      const record = build(outcome.record);
      const node = addressToNode[record.clientAddress];
      if (node !== undefined) record.node = node;
      return toRecord(record);
    },
    timeOfLine: timeOf,
  };
}
