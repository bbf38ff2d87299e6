// One-shot read of the sccache nginx JSON log (optionally one time window of it).
import type { SccacheRecord } from '../types.js';
import type { StreamStats } from '../../artifacts/index.js';
import { createSccacheParser } from '../logs/create-shipped-sccache-parser.js';
import type { SccacheSummary, SummarizeSccacheOptions } from '../logs/summarize-sccache.js';
import { addToSccacheSummary, createSccacheSummary, isSccacheWrite } from '../logs/summarize-sccache.js';
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
  /**
   * `records` (default): every record. `aggregate`: only the writes as records, everything in the window counted
   * into `summary` (what summarizeSccache gives for all records, with `summarize`'s prefixes). `stats` are the same.
   */
  mode?: 'records' | 'aggregate';
  /** The live and run prefixes of the summary in `mode: 'aggregate'`; default live prefix ''. */
  summarize?: SummarizeSccacheOptions;
}

export interface ReadSccacheLogResult {
  records: SccacheRecord[];
  stats: StreamStats;
  /** In `mode: 'aggregate'`: the summary of every record in the window. */
  summary?: SccacheSummary;
}

export async function readSccacheLog(options: ReadSccacheLogOptions): Promise<ReadSccacheLogResult> {
  const parser = createSccacheParser({
    confText: options.confText,
    davRoot: options.davRoot,
    addressToNode: options.addressToNode,
  });
  const window = { path: options.path, fromMs: options.fromMs, toMs: options.toMs, slackMs: options.slackMs };
  if (options.mode !== 'aggregate') {
    const { records, stats } = await createLogTail({ ...window, ...parser }).readToEnd();
    return { records, stats };
  }
  const summarize = options.summarize ?? { livePrefix: '' };
  const aggregate = {
    create: () => createSccacheSummary(summarize),
    add: (summary: SccacheSummary, record: SccacheRecord) => addToSccacheSummary(summary, record, summarize),
  };
  const {
    records,
    stats,
    aggregate: summary,
  } = await createLogTail({ ...window, ...parser, aggregate, keep: isSccacheWrite }).readToEnd();
  return { records, stats, summary };
}
