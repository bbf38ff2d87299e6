// The public API of diff/: two runs compared (runs are loaded with report's loadRunModel).
export { buildRunDiff, type DiffSide } from './build-run-diff.js';
export { buildRunDrag } from './build-run-drag.js';
export { renderRunDiffMd } from './render-run-diff-md.js';
export { renderRunDiffHtml } from './render-run-diff-html.js';
export { NOT_KNOWN } from './format-delta.js';
export { replayAsRecorded } from './replay-as-recorded.js';
export { type SideFigures } from './build-side-figures.js';
