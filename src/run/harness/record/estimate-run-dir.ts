// How much a run will write into its run dir, estimated from the plan before anything starts, so a run root that
// cannot hold it is refused at preflight instead of failing hours in. Rates are allowances, not measurements:
// the log rates come from the spec's largest slice (zot.jsonl at 294.6 MB for one cold run) over a multi-hour run,
// rounded up. docs/harness.md ("Disk") says the same.

/** Bytes per line of samples.jsonl, rounded up. */
const SAMPLE_LINE_BYTES = 300;
/** The registry and compiler-cache logs together, fleet-wide, while the run builds. */
const LOG_BYTES_PER_SECOND = 50_000;
/** A trace file and a metadata file per target. */
const TARGET_FILES_BYTES = 1_000_000;
/** bake's rawjson status stream per second of build. */
const STATUS_BYTES_PER_BUILD_SECOND = 1_000;

/** Set aside at the start so finalize can still write run.json and the report if the disk fills (guard-run-dir.ts). */
export const RESERVE_BYTES = 8_000_000;

export interface RunDirEstimate {
  totalBytes: number;
  samplesBytes: number;
  logBytes: number;
  targetBytes: number;
}

export interface EstimateRunDirOptions {
  makespanSeconds: number;
  nodes: number;
  sampleIntervalMs: number;
  /** Planned build seconds per target. */
  buildSeconds: readonly number[];
}

export function estimateRunDir(options: EstimateRunDirOptions): RunDirEstimate {
  const scrapes = Math.ceil((options.makespanSeconds * 1000) / options.sampleIntervalMs);
  const samplesBytes = options.nodes * scrapes * SAMPLE_LINE_BYTES;
  const logBytes = Math.ceil(options.makespanSeconds * LOG_BYTES_PER_SECOND);
  const targetBytes = options.buildSeconds.reduce(
    (sum, seconds) => sum + TARGET_FILES_BYTES + Math.ceil(seconds * STATUS_BYTES_PER_BUILD_SECOND),
    0,
  );
  return {
    totalBytes: samplesBytes + logBytes + targetBytes + RESERVE_BYTES,
    samplesBytes,
    logBytes,
    targetBytes,
  };
}

const toMb = (bytes: number) => `${Math.ceil(bytes / 1e6)} MB`;

/** The preflight problem when the run root's free space cannot hold the estimate, else undefined. */
export function findDiskProblem(options: {
  root: string;
  freeBytes: number;
  estimate: RunDirEstimate;
  makespanSeconds: number;
}): string | undefined {
  const { root, freeBytes, estimate } = options;
  if (freeBytes >= estimate.totalBytes) return undefined;
  const hours = (options.makespanSeconds / 3600).toFixed(1);
  return (
    `run root ${root} has ${toMb(freeBytes)} free; this run needs about ${toMb(estimate.totalBytes)} ` +
    `(log slices ${toMb(estimate.logBytes)}, samples ${toMb(estimate.samplesBytes)}, traces and status ` +
    `${toMb(estimate.targetBytes)} over a planned ${hours} h, and ${toMb(RESERVE_BYTES)} set aside for finalizing). Fix: free space there, or run with --root (PERF_ROOT) on a larger disk`
  );
}
