// The public API of diff/: two runs compared (runs are loaded with report's loadRunModel).
export {
  buildRunDiff,
  checkSameHarness,
  RUN_DIFF_VERSION,
  type BuildRunDiffOptions,
  type DiffSide,
  type RunDiff,
  type RunRef,
  type TargetDiff,
  type CriticalPathDiff,
  type SideWarning,
} from './build-run-diff.js';
export { toDelta, type Delta } from './to-delta.js';
export { buildRunDrag, type RunDrag } from './build-run-drag.js';
export { NO_EXPLANATION } from './build-diff-explanation.js';
export {
  buildMakespanExplanation,
  type CauseKind,
  type CauseShare,
  type MakespanExplanation,
} from './build-makespan-explanation.js';
export { buildSideFigures, type SideFigures } from './build-side-figures.js';
export { buildShapleyShares, type ShapleyShares } from './build-shapley-shares.js';
export { renderRunDiffMd } from './render-run-diff-md.js';
export { renderRunDiffHtml } from './render-run-diff-html.js';
export { formatBytes, formatDelta, formatSeconds } from './format-delta.js';
