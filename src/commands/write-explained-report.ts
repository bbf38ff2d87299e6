import { writeRunReport } from '../explain/index.js';
import { openRunDir } from '../run-dir/index.js';
import { addAdvice } from '../advise/index.js';
import type { DataFile } from '../artifacts/index.js';
import type { ChartThread } from '../report/index.js';

import { throwFileAccessError } from '../shared/to-file-access-error.js';

export interface WriteExplainedReportOptions {
  dir: string;
  /** The runs root: where the previous run of the same lane, harness and arch is looked for. */
  root: string;
  /** Where the run's siblings lie when `dir` is not under `root` yet (an import's staging folder). */
  runsRoot?: string;
  /** `report --against RUN`. */
  against?: string;
  /** report's chart thread, started first thing (writeRunReport). */
  chartThread?: ChartThread;
}

/** The report as `report` and `import` write it: the model, its misses explained and its advice, in the run dir. */
export async function writeExplainedReport(
  options: WriteExplainedReportOptions,
): Promise<{ model: DataFile; files: string[] }> {
  const runDir = openRunDir(options.dir);
  return writeRunReport({
    runDir,
    root: options.root,
    runsRoot: options.runsRoot,
    against: options.against,
    addParts: (model) => addAdvice({ runDir, model }),
    chartThread: options.chartThread,
  }).catch(throwFileAccessError({ path: options.dir, doing: 'write the report into the run dir' }));
}
