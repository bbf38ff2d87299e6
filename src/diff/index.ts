// The public API of diff/: two runs compared, and the run-dir loader diff, export and trends share.
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
} from './build-run-diff.js';
export { buildRunDrag, type RunDrag } from './build-run-drag.js';
export { renderRunDiffMd } from './render-run-diff-md.js';
export { formatBytes, formatDelta, formatSeconds } from './format-delta.js';
export { findRunDir, loadRunModel, type LoadedRun } from './load-run-model.js';
