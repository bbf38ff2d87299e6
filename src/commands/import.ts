import { buildReportModel, readRunInputs, writeReport } from '../report/index.js';
import { importRun } from '../run/import/import-run.js';
import type { ImportValues } from './flags/index.js';

// `rocm-perf import --lane NAME SRC`: a run recorded elsewhere comes in under --root as lane NAME.
export async function runImportCommand(options: ImportValues): Promise<void> {
  const imported = await importRun({
    source: options.source,
    lane: options.lane,
    root: options.root,
    force: options.force,
    extractTarball: async (extract) =>
      (await import('../run/executors/extract-tarball.js')).runExtractTarball(extract),
    rewriteReport: async (dir) => {
      const model = buildReportModel(await readRunInputs({ dir, generatedAtMs: Date.now() }));
      await writeReport({ dir, model });
    },
  });
  console.log(
    `${imported.replaced ? 'replaced' : 'imported'} run ${imported.stamp} as lane ${options.lane}: ${imported.dir}`,
  );
}
