import type { TargetTrace } from '../collect/index.js';
import { mergeIntervals, totalLengthMs } from '../shared/intervals.js';

/**
 * A target's setup seconds in one run: what the harness waited on beyond the build steps and the uploads (run.json's
 * start to finish, less the trace's step span and the union of its upload spans): starting bake, solving,
 * exporting, pushing manifests. Node-independent; never below 0. Pure.
 */
export function measureSetupSeconds(
  trace: Pick<TargetTrace, 'buildSeconds' | 'uploads'>,
  outcome: { startedAtMs: number; finishedAtMs: number },
): number {
  const uploadMs = totalLengthMs(mergeIntervals(trace.uploads.map((u) => [u.startMs, u.endMs] as const)));
  const wall = (outcome.finishedAtMs - outcome.startedAtMs) / 1000;
  return Math.max(0, wall - trace.buildSeconds - uploadMs / 1000);
}
