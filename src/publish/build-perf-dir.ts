import type { DataFile } from '../artifacts/index.js';
import { formatDuration } from '../shared/format-units.js';
import { renderRunsIndex, RUNS_INDEX_SCRIPT, RUNS_INDEX_SCRIPT_NAME } from '../report/index.js';
import { buildReportFiles, compareSiteRunsNewestFirst, type SiteFile, type SiteRun } from './build-site.js';

// `publish --into DIR` (data/perf by default): the results kept in the repository beside the code. Per run only
// what is small and final — data.json, report.md and its SVGs, run.json, plan.json, artifacts.txt — under
// DIR/<stamp>/; never raw logs, samples or traces. DIR/README.md lists the runs newest first (it renders on the
// code host) and DIR/index.html selects one; both link to the run's report.md. Pure: models in, files out.

/** Files copied as they are from the run dir when present. */
export const PERF_COPIED_FILES = ['run.json', 'plan.json', 'artifacts.txt'] as const;

export interface PerfRun extends SiteRun {
  /** PERF_COPIED_FILES found in the run dir, by name. */
  copies: Readonly<Record<string, Buffer>>;
}

/** One run's files, paths relative to DIR (`<stamp>/…`). */
export function buildPerfRunFiles(run: PerfRun): SiteFile[] {
  const base = run.stamp;
  const files = buildReportFiles(run, base);
  for (const name of PERF_COPIED_FILES) {
    const content = run.copies[name];
    if (content !== undefined) files.push({ path: `${base}/${name}`, content });
  }
  return files;
}

const formatMakespan = (seconds: number | null): string => (seconds === null ? '—' : formatDuration(seconds));

/** DIR/README.md, DIR/index.html and the selector's script, from every run DIR holds (its data.json). */
export function buildPerfIndexFiles(models: readonly { stamp: string; model: DataFile }[]): SiteFile[] {
  const sorted = [...models].sort(compareSiteRunsNewestFirst);
  const href = (stamp: string) => `${encodeURIComponent(stamp)}/report.md`;
  const rows = sorted.map(({ stamp, model }) => {
    const makespan = formatMakespan(model.summary.makespanSeconds);
    const label = model.run.status === 'completed' ? makespan : `${makespan} (${model.run.status})`;
    return `| [${stamp}](${href(stamp)}) | ${model.run.harness} | ${model.run.lane} | ${model.run.arch ?? '—'} | ${label} |`;
  });
  const readme = [
    '# Fleet runs',
    '',
    'Written by `rocm-perf publish --into`: one directory per run with its data.json, report.md and charts,',
    'run.json, plan.json and artifacts.txt. Newest first.',
    '',
    '| run | harness | lane | arch | makespan |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  const index = renderRunsIndex({
    title: 'rocm-perf: published fleet runs',
    runs: sorted.map(({ stamp, model }) => ({
      stamp,
      href: href(stamp),
      harness: model.run.harness,
      lane: model.run.lane,
      status: model.run.status,
      namespace: model.run.namespace,
    })),
    assetBase: 'assets/',
  });
  return [
    { path: 'README.md', content: Buffer.from(readme) },
    { path: 'index.html', content: Buffer.from(index) },
    { path: `assets/${RUNS_INDEX_SCRIPT_NAME}`, content: Buffer.from(RUNS_INDEX_SCRIPT) },
  ];
}
