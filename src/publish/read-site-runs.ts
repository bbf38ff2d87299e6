import { readRunInputs, type RunInputs, openRunDir } from '../run-dir/index.js';
import { realpath } from 'node:fs/promises';
import { readRunFileBytes, RunFileRefusedError } from '../shared/open-run-file.js';
import path from 'node:path';
import type { RunIndexEntry } from '../artifacts/index.js';
import { buildReportModel, compareEntriesNewestFirst, loadRunIndex } from '../report/index.js';
import { renderReportCharts } from '../report/render-chart-svg.js';

import { errorMessage } from '../shared/error-message.js';
import { isRocmPerfError } from '../shared/errors.js';

import { PERF_COPIED_FILES, type PerfRun } from './build-perf-dir.js';
import type { SiteRun } from './build-site.js';

// Every run under the root, read and modelled the way `report` does it, for the static site and for
// `publish --into`. The runs are listed from the root's run index (docs/history.md), brought up to date first the
// way serve does it (loadRunIndex: a run added since is read, one removed is dropped, one changed is read again),
// not from a rescan of every run.json. Each listed run is then read from its dir (the source of truth: whether it
// is final is never taken from an index line); one that cannot be read is left out and named as damaged with the
// reason, and never stops the others from being published.

/** The runs the root's index lists, newest first, and what to say about the index itself. */
async function listIndexedRuns(
  root: string,
  nowMs: number,
): Promise<{ entries: { entry: RunIndexEntry; dir: string }[]; notes: string[] }> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], notes: [] };
    throw error;
  }
  const index = await loadRunIndex({ realRoot, nowMs, checkSignatures: true });
  const entries = [...index.entries.values()]
    .sort(compareEntriesNewestFirst)
    .map((entry) => ({ entry, dir: path.join(realRoot, entry.folder) }));
  return { entries, notes: index.problems };
}

/** A run's inputs, or the reason it is damaged: a run that cannot be read is named, not fatal to the rest. */
async function readRunOrDamage(
  dir: string,
  generatedAtMs: number,
): Promise<{ inputs: RunInputs } | { damaged: string }> {
  try {
    return { inputs: await readRunInputs({ runDir: openRunDir(dir), generatedAtMs }) };
  } catch (error) {
    if (!isRocmPerfError(error) && !(error instanceof SyntaxError)) throw error;
    return { damaged: errorMessage(error) };
  }
}

const describeDamage = (folder: string, reason: string) => `${folder}: damaged (${reason})`;

/** A run modelled as `report` does, with its charts; its loud warnings go to `loud`. */
function toSiteRun(stamp: string, inputs: RunInputs, loud: string[]): SiteRun {
  const model = buildReportModel(inputs);
  for (const warning of model.summary.warnings)
    if (warning.level === 'loud') loud.push(`${stamp}: ${warning.message}`);
  return { stamp, model, svgs: renderReportCharts(model) };
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
}): Promise<{ runs: SiteRun[]; loud: string[]; left: string[]; notes: string[] }> {
  const runs: SiteRun[] = [];
  const loud: string[] = [];
  const left: string[] = [];
  const { entries, notes } = await listIndexedRuns(root, generatedAtMs);
  for (const { entry, dir } of entries) {
    const read = await readRunOrDamage(dir, generatedAtMs);
    if ('damaged' in read) left.push(describeDamage(entry.folder, read.damaged));
    else runs.push(toSiteRun(entry.folder, read.inputs, loud));
  }
  return { runs, loud, left, notes };
}

/**
 * The finished runs under the root, for `publish --into`: each modelled as of its own end (so publishing again
 * gives the same bytes), with run.json, plan.json and artifacts.txt as they are. A run still going, or one
 * without run.json, is not final and is left out, with the reason.
 */
export async function readFinalRuns({
  root,
  nowMs = Date.now(),
}: {
  root: string;
  nowMs?: number;
}): Promise<{ runs: PerfRun[]; loud: string[]; left: string[]; notes: string[] }> {
  const runs: PerfRun[] = [];
  const loud: string[] = [];
  const left: string[] = [];
  const { entries, notes } = await listIndexedRuns(root, nowMs);
  for (const { entry, dir } of entries) {
    // The run dir, not its entry, says whether the run is final: a line of the index is never trusted to hide one.
    const read = await readRunOrDamage(dir, 0);
    if ('damaged' in read) {
      left.push(describeDamage(entry.folder, read.damaged));
      continue;
    }
    const { inputs } = read;
    const finishedAtMs = inputs.run?.finishedAtMs ?? null;
    if (inputs.run === undefined || finishedAtMs === null || inputs.run.status === 'running') {
      left.push(`${entry.folder}: ${inputs.run === undefined ? 'no run.json' : 'still running'}, not final`);
      continue;
    }
    const run = toSiteRun(entry.folder, { ...inputs, generatedAtMs: finishedAtMs }, loud);
    const copies: Record<string, Buffer> = {};
    for (const name of PERF_COPIED_FILES) {
      const content = await readCopiedFile(path.join(dir, name), loud, entry.folder);
      if (content !== undefined) copies[name] = content;
    }
    runs.push({ ...run, copies });
  }
  return { runs, loud, left, notes };
}
