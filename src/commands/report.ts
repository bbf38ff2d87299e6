import path from 'node:path';
import { buildReportModel, findNewestRun, findRunDir, readRunInputs, writeReport } from '../report/index.js';
import { ExitCode, RocmPerfError } from '../shared/errors.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import type { ReportValues } from './flags/index.js';

// `rocm-perf report [RUN_DIR]`: data.json, report.md + SVGs and index.html into the run dir. Writes what it can,
// then fails with exit 1 when a stream was empty-but-present or drifted (bytes, no records).
export async function runReportCommand(options: ReportValues): Promise<void> {
  const { runDir, root } = options;
  const dir =
    runDir === undefined
      ? await findNewestRun(root).catch(
          throwFileAccessError({ path: root, flag: '--root', doing: 'list its runs' }),
        )
      : await findRunDir({ run: runDir, root });
  const model = buildReportModel(await readRunInputs({ dir, generatedAtMs: Date.now() }));
  const files = await writeReport({ dir, model }).catch(
    throwFileAccessError({ path: dir, doing: 'write the report into the run dir' }),
  );
  const loud = model.summary.warnings.filter((w) => w.level === 'loud');
  for (const warning of loud) console.error(`WARNING: ${warning.message}`);
  if (options.json)
    console.log(
      JSON.stringify({ dir, harness: model.run.harness, files, warnings: model.summary.warnings }, null, 2),
    );
  else
    console.log(
      `report (${model.run.harness} harness) written to ${dir}: ${files.map((f) => path.basename(f)).join(', ')}`,
    );
  if (loud.length > 0) {
    throw new RocmPerfError(
      'ROCMPERF_REPORT_STREAM_WARNINGS',
      `${loud.length} loud warning(s) in ${dir}; figures from those streams may read 0:\n  ${loud.map((w) => w.message).join('\n  ')}`,
      {
        exitCode: ExitCode.failures,
        hint: 'the report was written anyway; check the producer of each stream named above (format drift or an empty slice)',
      },
    );
  }
}
