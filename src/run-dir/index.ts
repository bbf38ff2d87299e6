// The readers of run-dir files (docs/run-dir.md): one handle per run dir and command (open-run-dir.ts), one
// reader per file, the damage and plausibility checks on the way. Other folders import this room through here.
export { findNewestRun, listRuns } from './list-runs.js';
export { type RunDir, openRunDir } from './open-run-dir.js';
export { readPlanFile, readPlanFileIfPresent, readRequiredPlanFile, writePlanFile } from './plan-file-io.js';
export { absentStream, probeStream, unreadableStream } from './probe-stream.js';
export { readDataFile } from './read-data-file.js';
export { readRunFileChecks } from './read-run-checks.js';
export {
  buildAddressToNode,
  readArtifacts,
  readLane,
  readReportPlan,
  readRunInputs,
} from './read-run-dir.js';
export { isRunDir, readRunDirNames } from './read-run-dir-names.js';
export { readRequiredRunFile, readRunFile } from './read-run-file.js';
export { readRunIndexLines, applyRunIndexLine } from './read-run-index-lines.js';
export { readRunTraces, readTraceFile, readTraceFiles } from './read-trace-files.js';
export {
  type PlanForecastInput,
  type ReportPlan,
  type RunInputs,
  type StreamInput,
  type UsageInputs,
} from './run-inputs.js';
