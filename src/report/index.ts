// The public API of report/: the data.json model's loader diff, export and trends share, its renderers (the why
// sentences among them), and the writer of data.json, report.md and index.html. The run-dir readers are
// src/run-dir/'s; the writer that explains a run first is explain/'s (writeRunReport).
export { renderAdviceMd } from './render-advice-md.js';
export { toInertMarkdown } from './to-inert-markdown.js';
export { renderPageShell } from './render-page-shell.js';
export { findRunDir, loadRunModel } from './load-run-model.js';
export { gateRun, buildFlaggedRunError } from './gate-run.js';
export { renderWhyMd, renderWhySentence } from './render-why.js';
export { buildPartialRunError, listLoudWarningLines } from './build-partial-run-error.js';
export { buildReportModel } from './build-model.js';
export { readPageAssets } from './page-assets.js';
export type { ChartThread } from './start-chart-thread.js';
export { renderHtml } from './render-html.js';
export { renderReportMd } from './render-report-md.js';
export { RUNS_INDEX_SCRIPT, RUNS_INDEX_SCRIPT_NAME, renderRunsIndex } from './render-runs-index.js';
export {
  appendRunIndex,
  applyRunIndexLines,
  compareEntriesNewestFirst,
  loadRunIndex,
  noteRunInIndex,
  rewriteRunIndex,
  signRunDir,
  summarizeRunDir,
  syncRunIndex,
  type RunIndexProgress,
} from './run-index.js';
export { serialiseModel, writeReport } from './write-report.js';
