import { buildCriticalDrag, toScheduleFromRun, type CriticalDrag } from '../plan/index.js';
import type { Plan, RunFile } from '../artifacts/index.js';
import { isRocmPerfError } from '../shared/errors.js';

// run.json + plan.json → the critical path with drag (src/plan's analysis of the realised schedule). Without
// plan.json the dependencies are unknown, so there is no drag; an inconsistent schedule is a note, not a failure.

export type RunDrag = Pick<CriticalDrag, 'makespanSeconds' | 'path'>;

export function buildRunDrag({ runFile, plan }: { runFile: RunFile | undefined; plan: Plan | undefined }): {
  drag?: RunDrag;
  notes: string[];
} {
  if (!runFile || !plan) return { notes: [] };
  const schedule = toScheduleFromRun({ run: runFile, plan });
  try {
    const drag = buildCriticalDrag({ schedule, planned: plan.targets, nodeNames: schedule.nodeNames });
    return { drag: { makespanSeconds: drag.makespanSeconds, path: drag.path }, notes: [] };
  } catch (error) {
    if (!isRocmPerfError(error)) throw error;
    return { notes: [`no drag analysis: ${error.message}`] };
  }
}
