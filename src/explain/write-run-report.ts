import { readPlanFileIfPresent, type RunDir, readRunInputs } from '../run-dir/index.js';
import type { DataFile } from '../artifacts/index.js';
import { buildReportModel, type ChartThread, writeReport } from '../report/index.js';
import { startChartThread } from '../report/start-chart-thread.js';
import { explainRunDir } from './explain-run-dir.js';

export interface WriteRunReportOptions {
  /** The run dir's handle: the report, why and `addParts` read each of its files once through it. */
  runDir: RunDir;
  /** The runs root, where `against` is looked for as a stamp. */
  root?: string | undefined;
  /** Where the run's siblings lie when the run dir is not under its root yet (an import's staging folder). */
  runsRoot?: string | undefined;
  /** `report --against RUN`: the run to explain this one's misses against. */
  against?: string | undefined;
  /** Fills what a layer beside the report computes from the explained model (the advisor's `summary.advice`). */
  addParts?: (model: DataFile) => Promise<DataFile>;
  /** The thread that draws the charts, started by the caller as early as it could (and closed by it); else one is started here. */
  chartThread?: ChartThread | undefined;
}

/**
 * data.json, report.md and index.html for a run dir (`report`, `import`, and the harness's last step), a warm or
 * bench run's cache misses explained against the previous run of its lane, harness and arch (docs/explain.md);
 * returns the model written (the end-of-run summary is built from it, docs/summary.md) and the files.
 */
export async function writeRunReport(
  options: WriteRunReportOptions,
): Promise<{ model: DataFile; files: string[] }> {
  const { runDir } = options;
  // The charts are drawn on a thread from the model as measured, while this thread explains it (docs/startup.md).
  const chartThread = options.chartThread ?? startChartThread();
  try {
    const inputs = await readRunInputs({ runDir, generatedAtMs: Date.now() });
    const measured = buildReportModel(inputs);
    const charts = chartThread.render(measured);
    // Not left unhandled while the explanation runs: a failure is awaited (and thrown) in writeReport.
    charts.catch(() => undefined);
    const explained = await explainRunDir({
      runDir,
      model: measured,
      runFile: inputs.run,
      plan: inputs.plan === undefined ? undefined : await readPlanFileIfPresent(runDir),
      against: options.against,
      root: options.root,
      runsRoot: options.runsRoot,
      nowMs: inputs.generatedAtMs,
    });
    const model = options.addParts ? await options.addParts(explained) : explained;
    const files = await writeReport({ dir: runDir.dir, model, charts });
    return { model, files };
  } finally {
    if (!options.chartThread) await chartThread.close();
  }
}
