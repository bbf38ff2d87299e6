import { summarizeRegistry } from '../collect/index.js';
import type {
  RegistrySummary,
  RegistryWriteTotals,
  SccacheSummary,
  SccacheTotals,
} from '../collect/index.js';
import type { RegistryCounts, SccacheCounts, Summary } from '../artifacts/index.js';

// Compiler-cache and registry traffic from collect's running summaries of the two logs. The report's own grouping:
// only this run's key prefix is split per node (collect summarised the log with the run's prefix as `runPrefix`),
// and a record belongs to the node whose address run.json gives (else its raw address is the key).

const zeroCounts: SccacheCounts = { hits: 0, misses: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };

/** The run's prefix split out of the summary (every prefix when the run names none). */
export function buildSccacheSummary(
  summary: SccacheSummary | undefined,
  prefix: string | undefined,
): Summary['sccache'] {
  const inPrefix = prefix === undefined ? summary?.totals : summary?.run;
  const perNode = (prefix === undefined ? summary?.byNode : summary?.runByNode) ?? {};
  const nodes = Object.entries(perNode)
    .filter(([, totals]) => totals.hits + totals.misses + totals.writes > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  const total = inPrefix === undefined ? zeroCounts : toSccacheCounts(inPrefix);
  const all = summary === undefined ? zeroCounts : toSccacheCounts(summary.totals);
  return {
    prefix: prefix ?? null,
    total,
    perNode: Object.fromEntries(nodes.map(([node, totals]) => [node, toSccacheCounts(totals)])),
    outsidePrefix: {
      hits: all.hits - total.hits,
      misses: all.misses - total.misses,
      writes: all.writes - total.writes,
      bytesRead: all.bytesRead - total.bytesRead,
      bytesWritten: all.bytesWritten - total.bytesWritten,
    },
    partial: [],
  };
}

function toSccacheCounts({ hits, misses, writes, bytesRead, bytesWritten }: SccacheTotals): SccacheCounts {
  return { hits, misses, writes, bytesRead, bytesWritten };
}

/** collect's registry summary, cache vs image; writes of unknown size are counted apart, never added as 0. */
export function buildRegistrySummary(summary: RegistrySummary | undefined): Summary['registry'] {
  const { cache, image } = summary ?? summarizeRegistry([]);
  return {
    cache: toRegistryCounts(cache),
    image: toRegistryCounts(image),
    writesWithoutSize: cache.bytesUnknown + image.bytesUnknown,
    partial: [],
  };
}

function toRegistryCounts({
  bytesWritten,
  blobsWritten,
  manifestsWritten,
}: RegistryWriteTotals): RegistryCounts {
  return { bytesWritten, blobsWritten, manifestsWritten };
}
