import { readPlanFileIfPresent, readRunFile, type RunDir } from '../run-dir/index.js';
import type { Advice, DataFile } from '../artifacts/index.js';

import { isRocmPerfError } from '../shared/errors.js';

import { buildAdvice } from './build-advice.js';
import { readAdviseInput, type ReadAdviseInputOptions } from './read-advise-input.js';

/** How many runs of the lane `report` compares (`advise --runs` sets it for the command). */
const DEFAULT_ADVISE_RUNS = 5;

/** The ranked advice for a run dir whose model is built (`rocm-perf advise`, and `report`'s Advice section). */
export async function adviseRunDir(options: ReadAdviseInputOptions): Promise<Advice[]> {
  return buildAdvice(await readAdviseInput(options));
}

/**
 * The model with `summary.advice` filled, for `report` and the harness's finalize: the run's run.json and plan.json
 * read here. Expected failures of the advisor (a file it cannot read) leave the advice null, so a report is never
 * lost to it.
 */
export async function addAdvice({
  runDir,
  model,
  runs = DEFAULT_ADVISE_RUNS,
}: {
  runDir: RunDir;
  model: DataFile;
  runs?: number;
}): Promise<DataFile> {
  try {
    const runFile = await readRunFile(runDir);
    const plan = await readPlanFileIfPresent(runDir);
    const advice = await adviseRunDir({ runDir, model, runFile, plan, runs });
    return { ...model, summary: { ...model.summary, advice } };
  } catch (error) {
    if (!isRocmPerfError(error)) throw error;
    return model;
  }
}
