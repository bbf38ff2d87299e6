import type { TargetTrace } from '../collect/index.js';
import type { Plan, RunFile } from '../artifacts/index.js';
import type { RealisedSchedule, ScheduledTarget } from './critical-drag.js';

// A recorded run (run.json + plan.json + traces) → the realised schedule `buildCriticalDrag` analyses. Times are
// seconds from the measured start (run.json `measuredStartedAtMs`, else the first target's start). Only targets
// that started and settled (ok or failed) have times; the others are listed in `notes`.

export interface ToScheduleFromRunOptions {
  run: Pick<RunFile, 'targets' | 'measuredStartedAtMs' | 'nodes'>;
  /** For what each target waited for (`waitFor`); without it the schedule has queue edges only. */
  plan?: Pick<Plan, 'targets'>;
  /** Optional: the trace's build and total seconds are copied beside the run's wall times. */
  traces?: ReadonlyMap<string, TargetTrace>;
}

interface ScheduledRunTarget extends ScheduledTarget {
  status: 'ok' | 'failed';
  /** The span of the target's own steps, from its trace. */
  traceBuildSeconds?: number;
  /** The whole build record, from its trace. */
  traceTotalSeconds?: number;
}

export interface RunSchedule extends RealisedSchedule {
  targets: Record<string, ScheduledRunTarget>;
  queues: Record<string, string[]>;
  /** Epoch ms that is second 0. */
  originMs: number;
  nodeNames: string[];
  notes: string[];
}

function findOriginMs(run: ToScheduleFromRunOptions['run']): number {
  if (run.measuredStartedAtMs !== null) return run.measuredStartedAtMs;
  const starts = Object.values(run.targets).flatMap((outcome) =>
    'startedAtMs' in outcome ? [outcome.startedAtMs] : [],
  );
  return starts.length > 0 ? Math.min(...starts) : 0;
}

export function toScheduleFromRun({ run, plan, traces }: ToScheduleFromRunOptions): RunSchedule {
  const originMs = findOriginMs(run);
  const targets: Record<string, ScheduledRunTarget> = {};
  const notes: string[] = [];
  for (const name of Object.keys(run.targets).sort()) {
    const outcome = run.targets[name]!;
    if (outcome.status !== 'ok' && outcome.status !== 'failed') {
      notes.push(
        `${name}: ${outcome.status} in run.json, so it has no times and is left out of the schedule`,
      );
      continue;
    }
    const entry: ScheduledRunTarget = {
      node: outcome.node,
      status: outcome.status,
      startSeconds: (outcome.startedAtMs - originMs) / 1000,
      finishSeconds: (outcome.finishedAtMs - originMs) / 1000,
      deps: plan?.targets[name]?.waitFor ?? [],
    };
    const trace = traces?.get(name);
    if (trace) [entry.traceBuildSeconds, entry.traceTotalSeconds] = [trace.buildSeconds, trace.totalSeconds];
    targets[name] = entry;
  }
  if (!plan) notes.push('no plan.json: dependencies unknown, so the critical path follows node queues only');
  const queues: Record<string, string[]> = {};
  for (const name of Object.keys(targets)) (queues[targets[name]!.node] ??= []).push(name);
  for (const list of Object.values(queues))
    list.sort((a, b) => targets[a]!.startSeconds - targets[b]!.startSeconds || (a < b ? -1 : 1));
  const nodeNames = [...new Set([...run.nodes.map((node) => node.name), ...Object.keys(queues)])].sort();
  return { targets, queues, originMs, nodeNames, notes };
}
