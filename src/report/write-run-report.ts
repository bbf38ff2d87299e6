import type { DataFile } from '../artifacts/index.js';
import { buildReportModel } from './build-model.js';
import { readRunInputs } from './read-run-dir.js';
import { writeReport } from './write-report.js';

/**
 * data.json, report.md and index.html for a run dir (the harness's last step); returns the report's loud warnings.
 * `addParts` fills what a layer beside the report computes (the advisor's `summary.advice`) before it is written.
 */
export async function writeRunReport(
  runDir: string,
  addParts: (model: DataFile) => Promise<DataFile> = (model) => Promise.resolve(model),
): Promise<string[]> {
  const model = await addParts(
    buildReportModel(await readRunInputs({ dir: runDir, generatedAtMs: Date.now() })),
  );
  await writeReport({ dir: runDir, model });
  return model.summary.warnings
    .filter((warning) => warning.level === 'loud')
    .map((warning) => warning.message);
}
