// The public API of diff/: two runs compared (runs are loaded with report's loadRunModel).
export {
  buildRunDiff,
  checkSameHarness,
  toDelta,
  RUN_DIFF_VERSION,
  type BuildRunDiffOptions,
  type Delta,
  type DiffSide,
  type RunDiff,
  type RunRef,
  type TargetDiff,
  type CriticalPathDiff,
  type SideWarning,
} from './build-run-diff.js';
export { buildRunDrag, type RunDrag } from './build-run-drag.js';
export { renderRunDiffMd } from './render-run-diff-md.js';
export { formatBytes, formatDelta, formatSeconds } from './format-delta.js';
