import type { SccacheRecord } from '../../src/collect/index.js';
import {
  addToSccacheSummary,
  createSccacheSummary,
  type SccacheSummary,
  type SummarizeSccacheOptions,
} from '../../src/collect/logs/summarize-sccache.js';

// The whole-list form of the streamed sccache summary (the product adds records one by one as it reads a log).
export function summarizeSccache(
  records: Iterable<SccacheRecord>,
  options: SummarizeSccacheOptions,
): SccacheSummary {
  const summary = createSccacheSummary(options);
  for (const record of records) addToSccacheSummary(summary, record, options);
  return summary;
}
