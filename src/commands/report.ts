import path from 'node:path';
import { addAdvice } from '../advise/index.js';
import {
  buildPartialRunError,
  buildReportModel,
  findNewestRun,
  findRunDir,
  listLoudWarningLines,
  readRunInputs,
  writeReport,
} from '../report/index.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import { readPlanFileIfPresent } from '../artifacts/plan-file-io.js';
import { explainRunDir } from '../explain/index.js';
import type { ReportValues } from './flags/index.js';

// `rocm-perf report [RUN_DIR]`: data.json, report.md + SVGs and index.html into the run dir. Writes what it can,
// then fails with exit 1 when a loud warning marks figures partial (a damaged, drifted or empty input file).
export async function runReportCommand(options: ReportValues): Promise<void> {
  const { runDir, root } = options;
  const dir =
    runDir === undefined
      ? await findNewestRun(root).catch(
          throwFileAccessError({ path: root, flag: '--root', doing: 'list its runs' }),
        )
      : await findRunDir({ run: runDir, root });
  const inputs = await readRunInputs({ dir, generatedAtMs: Date.now() });
  const explained = await explainRunDir({
    dir,
    model: buildReportModel(inputs),
    runFile: inputs.run,
    plan: inputs.plan === undefined ? undefined : await readPlanFileIfPresent(dir),
    against: options.against,
    root,
    nowMs: inputs.generatedAtMs,
  });
  const model = await addAdvice({
    dir,
    model: explained,
  });
  const files = await writeReport({ dir, model }).catch(
    throwFileAccessError({ path: dir, doing: 'write the report into the run dir' }),
  );
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
