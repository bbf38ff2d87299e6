// The public API of diff/: two runs compared (runs are loaded with report's loadRunModel).
export { buildRunDiff, type BuildRunDiffOptions, type DiffSide, type RunDiff } from './build-run-diff.js';
export { toDelta } from './to-delta.js';
export { buildRunDrag, type RunDrag } from './build-run-drag.js';
export { NO_EXPLANATION } from './build-diff-explanation.js';
export { type CauseShare, type MakespanExplanation } from './build-makespan-explanation.js';
export { buildShapleyShares } from './build-shapley-shares.js';
export { renderRunDiffMd } from './render-run-diff-md.js';
export { renderRunDiffHtml } from './render-run-diff-html.js';
export { formatBytes, formatSeconds } from './format-delta.js';
export { replayAsRecorded } from './replay-as-recorded.js';
