import path from 'node:path';
import { buildPartialRunError, findRunDir, listLoudWarningLines, type ChartThread } from '../report/index.js';
import { findNewestRun } from '../run-dir/index.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import { writeExplainedReport } from './write-explained-report.js';
import type { ReportValues } from './flags/index.js';

// `rocm-perf report [RUN_DIR]`: data.json, report.md + SVGs and index.html into the run dir. Writes what it can,
// then fails with exit 1 when a loud warning marks figures partial (a damaged, drifted or empty input file).
/** `chartThread`: the thread that draws the charts, started first (program.ts); closed here when the report ends. */
export async function runReportCommand(options: ReportValues, chartThread: ChartThread): Promise<void> {
  try {
    await writeReportOfRun(options, chartThread);
  } finally {
    await chartThread.close();
  }
}

async function writeReportOfRun(options: ReportValues, chartThread: ChartThread): Promise<void> {
  const { runDir, root } = options;
  const dir =
    runDir === undefined
      ? await findNewestRun(root).catch(
          throwFileAccessError({ path: root, flag: '--root', doing: 'list its runs' }),
        )
      : await findRunDir({ run: runDir, root });
  const { model, files } = await writeExplainedReport({ dir, root, against: options.against, chartThread });
  const sides = [{ label: dir, model }];
  for (const line of listLoudWarningLines(sides)) console.error(line);
  if (options.json)
    console.log(
      JSON.stringify({ dir, harness: model.run.harness, files, warnings: model.summary.warnings }, null, 2),
    );
  else
    console.log(
      `report (${model.run.harness} harness) written to ${dir}: ${files.map((f) => path.basename(f)).join(', ')}`,
    );
  const failure = buildPartialRunError({ command: 'report', sides });
  if (failure) throw failure;
}
