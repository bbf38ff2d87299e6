import { createHash } from 'node:crypto';
import type { DataFile, SiteManifest } from '../artifacts/index.js';
import {
  renderHtml,
  renderReportMd,
  renderRunsIndex,
  RUNS_INDEX_SCRIPT,
  RUNS_INDEX_SCRIPT_NAME,
  serialiseModel,
} from '../report/index.js';
import { buildTrends, renderTrendsHtml, toTrendRun, TRENDS_PAGE } from '../trends/index.js';

// The static site: a top page with a selector for every run (newest first), each run's page with its data.json,
// report.md and SVGs under runs/<stamp>/, and the scripts once under assets/. Pure: models and assets in, files
// out; SVGs arrive rendered (the renderer is server-side ECharts).

export interface SiteRun {
  stamp: string;
  model: DataFile;
  svgs: { timeline: string; targets: string };
}

export interface SiteFile {
  /** POSIX path relative to the site root. */
  path: string;
  content: Buffer;
}

/** Newest first by the run's start (data.json run.startedAtMs), not by folder name; a run without one last. */
export function compareSiteRunsNewestFirst(
  a: { stamp: string; model: Pick<DataFile, 'run'> },
  b: { stamp: string; model: Pick<DataFile, 'run'> },
): number {
  const start = (r: { model: Pick<DataFile, 'run'> }): number => r.model.run.startedAtMs ?? -Infinity;
  return start(b) - start(a) || b.stamp.localeCompare(a.stamp);
}

export const SITE_MANIFEST = '.rocm-perf-manifest.json';

export function buildSite({
  runs,
  assets,
}: {
  runs: readonly SiteRun[];
  assets: Readonly<Record<string, Buffer>>;
}): SiteFile[] {
  const sorted = [...runs].sort(compareSiteRunsNewestFirst);
  const files: SiteFile[] = Object.entries(assets).map(([name, content]) => ({
    path: `assets/${name}`,
    content,
  }));
  files.push({ path: `assets/${RUNS_INDEX_SCRIPT_NAME}`, content: Buffer.from(RUNS_INDEX_SCRIPT) });
  for (const run of sorted) {
    const base = `runs/${run.stamp}`;
    files.push(
      {
        path: `${base}/index.html`,
        content: Buffer.from(
          renderHtml({
            model: run.model,
            assetBase: '../../assets/',
            indexHref: '../../',
            chartSvg: run.svgs.timeline,
          }),
        ),
      },
      ...buildReportFiles(run, base),
    );
  }
  const trends = buildTrends({ runs: sorted.map((r) => toTrendRun(r.model)) });
  // Trends name a run by its own stamp (run.json); its pages live under its folder's name.
  const folders = new Map(sorted.map((r) => [r.model.run.stamp, r.stamp]));
  const runHref = (stamp: string): string => `runs/${encodeURIComponent(folders.get(stamp) ?? stamp)}/`;
  files.push({
    path: TRENDS_PAGE,
    content: Buffer.from(renderTrendsHtml({ trends, indexHref: './', runHref })),
  });
  const items = sorted.map((r) => ({
    stamp: r.stamp,
    href: `runs/${encodeURIComponent(r.stamp)}/`,
    harness: r.model.run.harness,
    lane: r.model.run.lane,
    status: r.model.run.status,
    namespace: r.model.run.namespace,
  }));
  files.push({
    path: 'index.html',
    content: Buffer.from(
      renderRunsIndex({
        title: 'rocm-perf: instrumented fleet runs',
        runs: items,
        assetBase: 'assets/',
        trendsHref: TRENDS_PAGE,
      }),
    ),
  });
  return files;
}

/** A run's data.json, report.md and its two SVGs under `base/`: the same files in the site and in data/perf. */
export function buildReportFiles(run: SiteRun, base: string): SiteFile[] {
  return [
    { path: `${base}/data.json`, content: Buffer.from(serialiseModel(run.model)) },
    {
      path: `${base}/report.md`,
      content: Buffer.from(
        renderReportMd({ model: run.model, charts: { timeline: 'timeline.svg', targets: 'targets.svg' } }),
      ),
    },
    { path: `${base}/timeline.svg`, content: Buffer.from(run.svgs.timeline) },
    { path: `${base}/targets.svg`, content: Buffer.from(run.svgs.targets) },
  ];
}

function hashContent(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

export function buildManifest(files: readonly SiteFile[]): SiteManifest {
  const entries = files
    .map((f): [string, string] => [f.path, hashContent(f.content)])
    .sort(([a], [b]) => a.localeCompare(b));
  return { version: 1, files: Object.fromEntries(entries) };
}

/** What a push must do: upload new or changed files, delete files the previous manifest had and this one lacks. */
export function planSiteSync(
  local: SiteManifest,
  remote: SiteManifest | undefined,
): { upload: string[]; skip: string[]; remove: string[] } {
  const before = remote?.files ?? {};
  const paths = Object.keys(local.files);
  return {
    upload: paths.filter((p) => before[p] !== local.files[p]),
    skip: paths.filter((p) => before[p] === local.files[p]),
    remove: Object.keys(before).filter((p) => !(p in local.files)),
  };
}
