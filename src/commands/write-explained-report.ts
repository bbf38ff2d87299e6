import { addAdvice } from '../advise/index.js';
import type { DataFile } from '../artifacts/index.js';
import { readPlanFileIfPresent } from '../run-dir/plan-file-io.js';
import { explainRunDir } from '../explain/index.js';
import { buildReportModel, readRunInputs, writeReport } from '../report/index.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';

export interface WriteExplainedReportOptions {
  dir: string;
  /** The runs root: where the previous run of the same lane, harness and arch is looked for. */
  root: string;
  /** Where the run's siblings lie when `dir` is not under `root` yet (an import's staging folder). */
  runsRoot?: string;
  /** `report --against RUN`. */
  against?: string;
}

/** The report as `report` writes it: the model, its misses explained and its advice, written into the run dir. */
export async function writeExplainedReport(
  options: WriteExplainedReportOptions,
): Promise<{ model: DataFile; files: string[] }> {
  const { dir } = options;
  const inputs = await readRunInputs({ dir, generatedAtMs: Date.now() });
  const explained = await explainRunDir({
    dir,
    model: buildReportModel(inputs),
    runFile: inputs.run,
    plan: inputs.plan === undefined ? undefined : await readPlanFileIfPresent(dir),
    against: options.against,
    root: options.root,
    runsRoot: options.runsRoot,
    nowMs: inputs.generatedAtMs,
  });
  const model = await addAdvice({ dir, model: explained });
  const files = await writeReport({ dir, model }).catch(
    throwFileAccessError({ path: dir, doing: 'write the report into the run dir' }),
  );
  return { model, files };
}
