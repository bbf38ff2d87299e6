// The public API of report/: the data.json model, its builders and renderers, and the run-dir I/O (including the
// run-dir loader diff, export and trends share).
export { buildReportModel } from './build-model.js';
export { buildChartOption, buildChartLayoutFor } from './build-chart-option.js';
export { renderHtml, PAGE_SCRIPT } from './render-html.js';
export { renderReportMd } from './render-report-md.js';
export { renderAdviceMd } from './render-advice-md.js';
export { toInertMarkdown } from './to-inert-markdown.js';
export { renderPageShell, type RenderPageShellOptions } from './render-page-shell.js';
export { renderChartSvg, renderTargetsSvg } from './render-chart-svg.js';
export { readLane, readRunInputs, RUN_FILES, TRACE_FILE } from './read-run-dir.js';
export { readRunTraces, readTraceFiles } from './read-trace-files.js';
export { findRunDir, loadRunModel, type LoadedRun } from './load-run-model.js';
export { gateRun, buildFlaggedRunError, type RunGate } from './gate-run.js';
export { writeReport, serialiseModel, REPORT_FILES } from './write-report.js';
export { writeRunReport } from './write-run-report.js';
export { readPageAssets } from './page-assets.js';
export { listRuns, findNewestRun, type RunEntry } from './list-runs.js';
export { readRunDirNames } from './read-run-dir-names.js';
export {
  buildPartialRunError,
  listLoudWarningLines,
  type PartialRunSide,
} from './build-partial-run-error.js';
export type { RunInputs, ReportPlan, StreamInput } from './run-inputs.js';
