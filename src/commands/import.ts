import { addAdvice } from '../advise/index.js';
import type { DataFile } from '../artifacts/index.js';
import { readPlanFileIfPresent } from '../artifacts/plan-file-io.js';
import { explainRunDir } from '../explain/index.js';
import {
  buildPartialRunError,
  buildReportModel,
  listLoudWarningLines,
  readRunInputs,
  writeReport,
} from '../report/index.js';
import { importRun } from '../run/import/import-run.js';
import type { ImportValues } from './flags/index.js';

// `rocm-perf import --lane NAME SRC`: a run recorded elsewhere comes in under --root as lane NAME.
// The imported run passes the report's checks: its loud warnings are printed and it ends with exit 1, as `report`.
export async function runImportCommand(options: ImportValues): Promise<void> {
  let model: DataFile | undefined;
  const imported = await importRun({
    source: options.source,
    lane: options.lane,
    root: options.root,
    force: options.force,
    extractTarball: async (extract) =>
      (await import('../run/executors/extract-tarball.js')).runExtractTarball(extract),
    // As `report` writes it: a warm run's misses explained against the previous run of its lane under --root.
    rewriteReport: async (dir) => {
      const inputs = await readRunInputs({ dir, generatedAtMs: Date.now() });
      const explained = await explainRunDir({
        dir,
        model: buildReportModel(inputs),
        runFile: inputs.run,
        plan: inputs.plan === undefined ? undefined : await readPlanFileIfPresent(dir),
        root: options.root,
        runsRoot: options.root,
        nowMs: inputs.generatedAtMs,
      });
      model = await addAdvice({ dir, model: explained });
      await writeReport({ dir, model });
    },
  });
  console.log(
    `${imported.replaced ? 'replaced' : 'imported'} run ${imported.stamp} as lane ${options.lane}: ${imported.dir}`,
  );
  if (model === undefined) return;
  const sides = [{ label: imported.dir, model }];
  for (const line of listLoudWarningLines(sides)) console.error(line);
  const failure = buildPartialRunError({ command: 'import', sides });
  if (failure) throw failure;
}
