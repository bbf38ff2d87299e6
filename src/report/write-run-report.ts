import type { DataFile } from '../artifacts/index.js';
import { readPlanFileIfPresent } from '../run-dir/plan-file-io.js';
import { explainRunDir } from '../explain/explain-run-dir.js';
import { buildReportModel } from './build-model.js';
import { readRunInputs } from '../run-dir/read-run-dir.js';
import { writeReport } from './write-report.js';

/**
 * data.json, report.md and index.html for a run dir (the harness's last step), a warm or bench run's cache misses
 * explained against the previous run of its lane, harness and arch (docs/explain.md); returns the model written (the
 * end-of-run summary is built from it, docs/summary.md).
 * `addParts` fills what a layer beside the report computes from the explained model (the advisor's
 * `summary.advice`) before it is written.
 */
export async function writeRunReport(
  runDir: string,
  addParts: (model: DataFile) => Promise<DataFile> = (model) => Promise.resolve(model),
): Promise<DataFile> {
  const inputs = await readRunInputs({ dir: runDir, generatedAtMs: Date.now() });
  const explained = await explainRunDir({
    dir: runDir,
    model: buildReportModel(inputs),
    runFile: inputs.run,
    plan: inputs.plan === undefined ? undefined : await readPlanFileIfPresent(runDir),
    nowMs: inputs.generatedAtMs,
  });
  const model = await addParts(explained);
  await writeReport({ dir: runDir, model });
  return model;
}
