import { DataFileSchema } from '../../artifacts/index.js';
import type { RunIndexEntry } from '../../artifacts/index.js';
import { errorMessage } from '../../shared/error-message.js';
import type { RunCache } from '../create-run-cache.js';
import type { FailureLog } from '../failure-reply.js';
import type { MetricModel, MetricRunGroup } from './build-metric-samples.js';
import { groupMetricRuns, type MetricRunEntry } from './group-metric-runs.js';

// The runs /metrics exports, read the way the pages read them: the run index (docs/history.md: lane, harness, arch
// and status of every run, kept current) to pick the runs (group-metric-runs.ts), then each picked run's data.json
// from serve's own run cache (the model the page shows). A run the index lists as damaged, or whose report cannot
// be read, is skipped, logged once and counted (rocm_perf_metrics_unreadable_runs), so one broken dir never takes
// the endpoint down. A run dir without run.json (no arch) is not a run of this fleet's harness: left out.

export interface MetricSources {
  /** Every run, newest first (serve's run index). */
  listRuns: () => Promise<readonly RunIndexEntry[]>;
  cache: RunCache;
  failures: FailureLog;
  /** A stamp → its run dir inside the root (never a link), or undefined. */
  resolveRunDir: (stamp: string) => Promise<string | undefined>;
}

export interface MetricGroups {
  groups: MetricRunGroup[];
  unreadableRuns: number;
}

/** Only what /metrics reads; the rest of data.json (timeline, series) is not validated again per scrape. */
const MetricModelSchema = DataFileSchema.pick({ run: true, summary: true });

/** Parsed summaries by run dir, kept while the cache's data.json keeps its ETag. */
type ParsedModels = Map<string, { etag: string; model: MetricModel }>;

export function createMetricModelMemo(): ParsedModels {
  return new Map();
}

async function readEntries(
  sources: MetricSources,
  unreadable: (stamp: string, error: unknown) => void,
): Promise<MetricRunEntry[]> {
  const entries = await Promise.all(
    (await sources.listRuns()).map(async (r): Promise<MetricRunEntry[]> => {
      if (r.damaged !== null) {
        unreadable(r.folder, new Error(r.damaged));
        return [];
      }
      if (r.arch === null) return [];
      const dir = await sources.resolveRunDir(r.folder);
      if (dir === undefined) return [];
      return [{ stamp: r.folder, dir, lane: r.lane, harness: r.harness, arch: r.arch, status: r.status }];
    }),
  );
  return entries.flat();
}

async function readModel(sources: MetricSources, memo: ParsedModels, dir: string): Promise<MetricModel> {
  const snapshot = await sources.cache.get(dir);
  const known = memo.get(dir);
  if (known?.etag === snapshot.etag) return known.model;
  const model = MetricModelSchema.strip().parse(JSON.parse(snapshot.body.toString('utf8')));
  if (memo.size > 10_000) memo.clear();
  memo.set(dir, { etag: snapshot.etag, model });
  return model;
}

export async function readMetricGroups(sources: MetricSources, memo: ParsedModels): Promise<MetricGroups> {
  let unreadableRuns = 0;
  const unreadable = (stamp: string, error: unknown): void => {
    unreadableRuns += 1;
    sources.failures.record(`metrics: run ${stamp}`, errorMessage(error));
  };
  const picked = groupMetricRuns(await readEntries(sources, unreadable));
  const groups: MetricRunGroup[] = [];
  for (const group of picked) {
    const models: MetricModel[] = [];
    for (const dir of group.dirs) {
      try {
        models.push(await readModel(sources, memo, dir));
      } catch (error) {
        unreadable(dir.slice(dir.lastIndexOf('/') + 1), error);
      }
    }
    const [latest, ...previous] = models;
    if (latest) groups.push({ lane: group.lane, harness: group.harness, arch: group.arch, latest, previous });
  }
  return { groups, unreadableRuns };
}
