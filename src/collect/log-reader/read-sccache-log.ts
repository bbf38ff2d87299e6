// One-shot read of the sccache nginx JSON log (optionally one time window of it).
import type { SccacheRecord, StreamStats } from '../types.js';
import { createSccacheParser } from '../logs/create-shipped-sccache-parser.js';
import { createLogTail } from './create-log-tail.js';

export interface ReadSccacheLogOptions {
  path: string;
  fromMs?: number;
  toMs?: number;
  addressToNode?: Readonly<Record<string, string>>;
  /** nginx conf holding `log_format sccache_json`; default: the shipped conf (embedded). */
  confText?: string;
  davRoot?: string;
  slackMs?: number;
}

export async function readSccacheLog(options: ReadSccacheLogOptions): Promise<{ records: SccacheRecord[]; stats: StreamStats }> {
  const parser = createSccacheParser({ confText: options.confText, davRoot: options.davRoot, addressToNode: options.addressToNode });
  const tail = createLogTail({ path: options.path, fromMs: options.fromMs, toMs: options.toMs, slackMs: options.slackMs, ...parser });
  const { records, stats } = await tail.readToEnd();
  return { records, stats };
}
