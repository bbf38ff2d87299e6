// One-shot read of the sccache nginx JSON log (optionally one time window of it).
import type { SccacheRecord } from '../types.js';
import type { StreamStats } from '../../artifacts/index.js';
import { createSccacheParser } from '../logs/create-shipped-sccache-parser.js';
import type { SccacheSummary, SummarizeSccacheOptions } from '../logs/summarize-sccache.js';
import { addToSccacheSummary, createSccacheSummary } from '../logs/summarize-sccache.js';
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
  /** The live and run prefixes of the summary; default live prefix '' and no run prefix. */
  summarize?: SummarizeSccacheOptions;
  /** Which records are returned one by one; default all. Every record is counted into `summary` either way. */
  keep?: (record: SccacheRecord) => boolean;
}

export interface ReadSccacheLogResult {
  /** The records `keep` accepted. */
  records: SccacheRecord[];
  stats: StreamStats;
  /** Every record in the window, summarised. */
  summary: SccacheSummary;
}

export async function readSccacheLog(options: ReadSccacheLogOptions): Promise<ReadSccacheLogResult> {
  const summarize = options.summarize ?? { livePrefix: '' };
  const { records, stats, aggregate } = await createLogTail({
    ...createSccacheParser(options),
    path: options.path,
    fromMs: options.fromMs,
    toMs: options.toMs,
    slackMs: options.slackMs,
    aggregate: {
      create: () => createSccacheSummary(summarize),
      add: (summary: SccacheSummary, record: SccacheRecord) =>
        addToSccacheSummary(summary, record, summarize),
    },
    keep: options.keep,
  }).readToEnd();
  return { records, stats, summary: aggregate };
}
