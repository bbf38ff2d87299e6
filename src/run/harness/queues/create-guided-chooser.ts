import { chooseGuidedTarget, type DispatchPlan, type StartedTarget } from '../../../plan/index.js';
import type { ChooseNext } from './guided-queues.js';

// The harness side of the guided-dispatch contract (docs/planning.md): wall-clock milliseconds become seconds on
// the plan's time axis (0 = the start of the measured run), and every call passes the same plan object, so the
// guide derived from it is built once. Pure.

export interface CreateGuidedChooserOptions {
  plan: DispatchPlan;
  /** Clock time of the measured run's start: the plan's second 0. */
  originMs: number;
}

const toSeconds = (ms: number, originMs: number) => (ms - originMs) / 1000;

export function createGuidedChooser({ plan, originMs }: CreateGuidedChooserOptions): ChooseNext {
  return (snapshot) => {
    const started: Record<string, StartedTarget> = {};
    for (const [target, job] of Object.entries(snapshot.started)) {
      started[target] = {
        node: job.node,
        startSeconds: toSeconds(job.startedAtMs, originMs),
        ...(job.finishedAtMs === undefined ? {} : { finishSeconds: toSeconds(job.finishedAtMs, originMs) }),
      };
    }
    const choice = chooseGuidedTarget({
      idleNode: snapshot.idleNode,
      readyTargets: snapshot.readyTargets,
      plan,
      nowSeconds: toSeconds(snapshot.nowMs, originMs),
      started,
      skippedTargets: snapshot.skippedTargets,
    });
    return choice.target === null ? null : { target: choice.target, reason: choice.reason };
  };
}
