// One-shot read of a registry log (Zot session log or docker-registry JSON log), optionally one time window of it.
import type { RegistryRecord, StreamStats } from '../types.js';
import type { RegistryLogFormat } from '../logs/create-registry-line-parser.js';
import { createRegistryLineParser } from '../logs/create-registry-line-parser.js';
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
}

export async function readRegistryLog(options: ReadRegistryLogOptions): Promise<{ records: RegistryRecord[]; stats: StreamStats }> {
  const parser = createRegistryLineParser(options);
  const tail = createLogTail({ path: options.path, fromMs: options.fromMs, toMs: options.toMs, slackMs: options.slackMs, ...parser });
  const { records, stats } = await tail.readToEnd();
  return { records, stats };
}
