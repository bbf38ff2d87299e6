import { buildReportModel } from '../report/build-model.js';
import { listRuns } from '../report/list-runs.js';
import { readRunInputs } from '../report/read-run-dir.js';
import { renderChartSvg, renderTargetsSvg } from '../report/render-chart-svg.js';
import type { SiteRun } from './build-site.js';

// Every run under the root, read and modelled the way `report` does it, for the static site.

export async function readSiteRuns({
  root,
  generatedAtMs,
}: {
  root: string;
  generatedAtMs: number;
}): Promise<{ runs: SiteRun[]; loud: string[] }> {
  const runs: SiteRun[] = [];
  const loud: string[] = [];
  for (const entry of await listRuns(root)) {
    const model = buildReportModel(await readRunInputs({ dir: entry.dir, generatedAtMs }));
    for (const warning of model.summary.warnings)
      if (warning.level === 'loud') loud.push(`${entry.stamp}: ${warning.message}`);
    runs.push({
      stamp: entry.stamp,
      model,
      svgs: { timeline: renderChartSvg(model), targets: renderTargetsSvg(model) },
    });
  }
  return { runs, loud };
}
