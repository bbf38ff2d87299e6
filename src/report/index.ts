// The public API of report/: the data.json model, its builders and renderers, and the run-dir I/O (including the
// run-dir loader diff, export and trends share).
export { buildReportModel } from './build-model.js';
export { renderAdviceMd } from './render-advice-md.js';
export { toInertMarkdown } from './to-inert-markdown.js';
export { renderPageShell } from './render-page-shell.js';
export { readLane, readRunInputs, RUN_DIR_FILES, TRACE_FILE } from '../run-dir/read-run-dir.js';
export { readRunTraces, readTraceFiles } from '../run-dir/read-trace-files.js';
export { findRunDir, loadRunModel } from './load-run-model.js';
export { gateRun, buildFlaggedRunError } from './gate-run.js';
export { writeReport } from './write-report.js';
export { writeRunReport } from './write-run-report.js';
export { listRuns, findNewestRun } from '../run-dir/list-runs.js';
export { buildPartialRunError, listLoudWarningLines } from './build-partial-run-error.js';
