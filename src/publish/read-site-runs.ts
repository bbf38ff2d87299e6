import { readRunFileBytes, RunFileRefusedError } from '../artifacts/open-run-file.js';
import path from 'node:path';
import { buildReportModel } from '../report/build-model.js';
import { listRuns } from '../report/list-runs.js';
import { readRunInputs } from '../report/read-run-dir.js';
import { renderChartSvg, renderTargetsSvg } from '../report/render-chart-svg.js';
import type { RunInputs } from '../report/run-inputs.js';
import { PERF_COPIED_FILES, type PerfRun } from './build-perf-dir.js';
import type { SiteRun } from './build-site.js';

// Every run under the root, read and modelled the way `report` does it, for the static site and for
// `publish --into`.

/** A run modelled as `report` does, with its charts; its loud warnings go to `loud`. */
function toSiteRun(stamp: string, inputs: RunInputs, loud: string[]): SiteRun {
  const model = buildReportModel(inputs);
  for (const warning of model.summary.warnings)
    if (warning.level === 'loud') loud.push(`${stamp}: ${warning.message}`);
  return { stamp, model, svgs: { timeline: renderChartSvg(model), targets: renderTargetsSvg(model) } };
}

/** A file copied as it is, read confined: a link or special file is left out with a loud warning naming it. */
async function readCopiedFile(file: string, loud: string[], stamp: string): Promise<Buffer | undefined> {
  try {
    return await readRunFileBytes(file);
  } catch (error) {
    if (error instanceof RunFileRefusedError) loud.push(`${stamp}: ${error.message}; not published`);
    return undefined;
  }
}

export async function readSiteRuns({
  root,
  generatedAtMs,
}: {
  root: string;
  generatedAtMs: number;
}): Promise<{ runs: SiteRun[]; loud: string[] }> {
  const runs: SiteRun[] = [];
  const loud: string[] = [];
  for (const entry of await listRuns(root))
    runs.push(toSiteRun(entry.stamp, await readRunInputs({ dir: entry.dir, generatedAtMs }), loud));
  return { runs, loud };
}

/**
 * The finished runs under the root, for `publish --into`: each modelled as of its own end (so publishing again
 * gives the same bytes), with run.json, plan.json and artifacts.txt as they are. A run still going, or one
 * without run.json, is not final and is left out, with the reason.
 */
export async function readFinalRuns({
  root,
}: {
  root: string;
}): Promise<{ runs: PerfRun[]; loud: string[]; left: string[] }> {
  const runs: PerfRun[] = [];
  const loud: string[] = [];
  const left: string[] = [];
  for (const entry of await listRuns(root)) {
    const inputs = await readRunInputs({ dir: entry.dir, generatedAtMs: 0 });
    const finishedAtMs = inputs.run?.finishedAtMs ?? null;
    if (inputs.run === undefined || finishedAtMs === null || inputs.run.status === 'running') {
      left.push(`${entry.stamp}: ${inputs.run === undefined ? 'no run.json' : 'still running'}, not final`);
      continue;
    }
    const run = toSiteRun(entry.stamp, { ...inputs, generatedAtMs: finishedAtMs }, loud);
    const copies: Record<string, Buffer> = {};
    for (const name of PERF_COPIED_FILES) {
      const content = await readCopiedFile(path.join(entry.dir, name), loud, entry.stamp);
      if (content !== undefined) copies[name] = content;
    }
    runs.push({ ...run, copies });
  }
  return { runs, loud, left };
}
