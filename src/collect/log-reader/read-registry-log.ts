// One-shot read of a registry log (Zot session log or docker-registry JSON log), optionally one time window of it.
import type { RegistryRecord } from '../types.js';
import type { StreamStats } from '../../artifacts/index.js';
import type { RegistryLogFormat } from '../logs/create-registry-line-parser.js';
import { createRegistryLineParser } from '../logs/create-registry-line-parser.js';
import type { RegistrySummary } from '../logs/summarize-registry.js';
import { addToRegistrySummary, createRegistrySummary } from '../logs/summarize-registry.js';
import { createLogTail } from './create-log-tail.js';

export interface ReadRegistryLogOptions {
  path: string;
  format: RegistryLogFormat;
  /** Globs on `<repository>:<tag>` marking cache exports (fleet.yaml `registry.cache_patterns`). */
  cachePatterns: readonly string[];
  fromMs?: number;
  toMs?: number;
  addressToNode?: Readonly<Record<string, string>>;
  slackMs?: number;
  /** registry-sizes.json's sizes, for writes the log gives no size (createRegistryLineParser). */
  sizes?: Readonly<Record<string, number>> | undefined;
  /**
   * Which records of the window are returned one by one; default all. Every record is counted into `summary`
   * either way, so a reader that needs only the summary passes `() => false` and holds no record in memory.
   */
  keep?: (record: RegistryRecord) => boolean;
}

export interface ReadRegistryLogResult {
  /** The records `keep` accepted. */
  records: RegistryRecord[];
  stats: StreamStats;
  /** Every record in the window, summarised. */
  summary: RegistrySummary;
}

export async function readRegistryLog(options: ReadRegistryLogOptions): Promise<ReadRegistryLogResult> {
  const { records, stats, aggregate } = await createLogTail({
    ...createRegistryLineParser(options),
    path: options.path,
    fromMs: options.fromMs,
    toMs: options.toMs,
    slackMs: options.slackMs,
    aggregate: { create: createRegistrySummary, add: addToRegistrySummary },
    keep: options.keep,
  }).readToEnd();
  return { records, stats, summary: aggregate };
}
