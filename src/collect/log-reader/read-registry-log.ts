// One-shot read of a registry log (Zot session log or docker-registry JSON log), optionally one time window of it.
import type { RegistryRecord } from '../types.js';
import type { StreamStats } from '../../artifacts/index.js';
import type { RegistryLogFormat } from '../logs/create-registry-line-parser.js';
import { createRegistryLineParser } from '../logs/create-registry-line-parser.js';
import type { RegistrySummary } from '../logs/summarize-registry.js';
import { addToRegistrySummary, createRegistrySummary, isRegistryWrite } from '../logs/summarize-registry.js';
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
  /**
   * `records` (default): every record. `aggregate`: only the writes (blob and manifest) as records, everything in
   * the window counted into `summary` (what summarizeRegistry gives for all records) — several times cheaper on a
   * large log, since reads are never held in memory. `stats` are the same in both modes.
   */
  mode?: 'records' | 'aggregate';
}

export interface ReadRegistryLogResult {
  records: RegistryRecord[];
  stats: StreamStats;
  /** In `mode: 'aggregate'`: the summary of every record in the window. */
  summary?: RegistrySummary;
}

export async function readRegistryLog(options: ReadRegistryLogOptions): Promise<ReadRegistryLogResult> {
  const parser = createRegistryLineParser(options);
  const window = { path: options.path, fromMs: options.fromMs, toMs: options.toMs, slackMs: options.slackMs };
  if (options.mode !== 'aggregate') {
    const { records, stats } = await createLogTail({ ...window, ...parser }).readToEnd();
    return { records, stats };
  }
  const aggregate = { create: createRegistrySummary, add: addToRegistrySummary };
  const {
    records,
    stats,
    aggregate: summary,
  } = await createLogTail({ ...window, ...parser, aggregate, keep: isRegistryWrite }).readToEnd();
  return { records, stats, summary };
}
