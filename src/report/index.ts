// The public API of report/: the data.json model's loader diff, export and trends share, its renderers, and the
// report writer. The run-dir readers are src/run-dir/'s.
export { renderAdviceMd } from './render-advice-md.js';
export { toInertMarkdown } from './to-inert-markdown.js';
export { renderPageShell } from './render-page-shell.js';
export { findRunDir, loadRunModel } from './load-run-model.js';
export { gateRun, buildFlaggedRunError } from './gate-run.js';
export { writeRunReport } from './write-run-report.js';
export { buildPartialRunError, listLoudWarningLines } from './build-partial-run-error.js';
