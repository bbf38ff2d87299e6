import type { RunFile } from '../artifacts/index.js';
import type { ReportPlan } from './run-inputs.js';

// What a reader of "measured vs planned" must know, said next to the plan in report.md and the page: a warm run
// planned without warm build figures (its plan is a cold plan, so every planned figure overstates it), and a
// measured makespan under the plan's lower bound (which a correct cost model never allows) with the reason. Pure.

export interface PlanNotesOptions {
  run: RunFile | undefined;
  plan: ReportPlan | undefined;
  makespanSeconds: number | null;
  lowerBoundSeconds: number | null;
}

const formatSeconds = (seconds: number) =>
  seconds < 10 ? `${Math.round(seconds * 10) / 10}s` : `${Math.round(seconds)}s`;

function isWarm(run: RunFile | undefined): boolean {
  return run?.harness === 'warm' || run?.mode === 'warm';
}

/**
 * The advice to run `costs --from` on this run, only where it would write the missing lines: `costs` takes a
 * target's figures only from a run where it finished ok (an interrupted run's unfinished targets give none).
 */
function adviseCostsFrom(run: RunFile | undefined, targets: readonly string[], lines: string): string {
  const fixable = targets.filter((target) => run?.targets[target]?.status === 'ok');
  const harness = isWarm(run) ? 'warm' : 'cold';
  if (run === undefined) return `\`rocm-perf costs --from ${harness.toUpperCase()}_RUN\` writes ${lines}`;
  if (fixable.length === targets.length) return `\`rocm-perf costs --from ${run.stamp}\` writes ${lines}`;
  const rerun = `a ${harness} run that finishes them, then \`rocm-perf costs --from\` it, writes ${lines}`;
  if (fixable.length === 0)
    return `this run (${run.status}) finished none of them, so \`costs --from\` on it writes none; ${rerun}`;
  return `\`rocm-perf costs --from ${run.stamp}\` writes ${lines} for the ${fixable.length} it finished (${fixable.slice(0, 5).join(', ')}${fixable.length > 5 ? ', …' : ''}); for the rest, ${rerun}`;
}

/** A warm run's plan made from cold build figures, wholly or for some targets; undefined when it had warm ones. */
function describeColdFigures(run: RunFile | undefined, plan: ReportPlan): string | undefined {
  if (!isWarm(run)) return undefined;
  const count = Object.keys(plan.targets).length;
  const cold = plan.costs.mode === 'cold' ? count : plan.costs.coldBuildFor.length;
  if (cold === 0) return undefined;
  const coldTargets = plan.costs.mode === 'cold' ? Object.keys(plan.targets) : plan.costs.coldBuildFor;
  const fix = adviseCostsFrom(run, coldTargets, '`warm-build` lines');
  if (plan.costs.mode === 'cold')
    return `planned without warm figures: this warm run was planned with cold build seconds for all ${count} targets (a cold plan), so every planned figure overstates a warm build; ${fix}, then plan with \`--mode warm\``;
  if (cold === count)
    return `planned without warm figures: no \`warm-build\` line for any of the ${count} targets, so the plan used cold build seconds and every planned figure overstates a warm build; ${fix}`;
  const names = plan.costs.coldBuildFor.slice(0, 5).join(', ');
  const more = cold > 5 ? ` and ${cold - 5} more` : '';
  return `planned partly without warm figures: cold build seconds for ${cold} of ${count} targets (${names}${more}: no \`warm-build\` line), so their planned figures overstate a warm build; ${fix}`;
}

/** A cold run's plan that counted whole exports (no `image` figure) for some targets; undefined otherwise. */
function describeWholeExport(run: RunFile | undefined, plan: ReportPlan): string | undefined {
  if (run === undefined || isWarm(run) || plan.costs.mode !== 'cold') return undefined;
  const whole = plan.costs.fullExportFor;
  if (whole.length === 0) return undefined;
  const count = Object.keys(plan.targets).length;
  const names = whole.slice(0, 5).join(', ');
  const more = whole.length > 5 ? ` and ${whole.length - 5} more` : '';
  return `planned with whole-export bytes: no \`image\` line for ${whole.length} of ${count} targets (${names}${more}), so their planned uploads count the cache export a cold run does not make; ${adviseCostsFrom(run, whole, '`image` lines')}`;
}

export function buildPlanNotes({
  run,
  plan,
  makespanSeconds,
  lowerBoundSeconds,
}: PlanNotesOptions): string[] {
  if (plan === undefined) return [];
  const cold = describeColdFigures(run, plan);
  const wholeExport = describeWholeExport(run, plan);
  const notes = [cold, wholeExport].flatMap((note) => (note === undefined ? [] : [note]));
  const finished = run?.status === 'completed';
  if (
    finished &&
    makespanSeconds !== null &&
    lowerBoundSeconds !== null &&
    makespanSeconds < lowerBoundSeconds
  ) {
    const why = cold
      ? 'the plan used cold build figures for a warm run (above)'
      : wholeExport
        ? 'the plan counted whole exports for a cold run (above)'
        : "the cost figures overstate this run: its targets built faster than target-costs and fleet.yaml's `speed` say (refresh them with `rocm-perf costs --from RUN`)";
    notes.push(
      `measured ${formatSeconds(makespanSeconds)} is under the plan's lower bound ${formatSeconds(lowerBoundSeconds)}, which no schedule can beat on the plan's figures: ${why}`,
    );
  }
  return notes;
}
