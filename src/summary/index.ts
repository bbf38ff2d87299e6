// The end-of-run summary of cold, warm and bench (docs/summary.md): built from the finished run's data.json model,
// rendered for the terminal and as markdown for a CI job's summary.
export { buildRunSummary, type RunSummary } from './build-run-summary.js';
export { renderSummaryText } from './render-summary-text.js';
export { renderSummaryMd } from './render-summary-md.js';
export { appendStepSummary } from './append-step-summary.js';
