import { type ReportPlan } from '../run-dir/index.js';
import type { RunFile, TargetSummary } from '../artifacts/index.js';
import { formatCount, formatDuration, toShownDifference } from '../shared/format-units.js';

// What a reader of "measured vs planned" must know, said next to the plan in report.md and the page, each computed
// from the run, never assumed: a warm run planned without warm build figures (and how its builds measured against
// those figures), how the makespan and each target's record compare with the plan (which way, by how much, which
// targets, and a push far from the bytes the plan charged), and a measured makespan under the plan's lower bound
// (which a correct cost model never allows) with the reason. Pure.

export interface PlanNotesOptions {
  run: RunFile | undefined;
  plan: ReportPlan | undefined;
  /** The measured targets (data.json summary.targets); absent: no per-target comparison. */
  targets?: readonly Pick<
    TargetSummary,
    'target' | 'node' | 'status' | 'buildSeconds' | 'totalSeconds' | 'uploadBytes'
  >[];
  makespanSeconds: number | null;
  lowerBoundSeconds: number | null;
}

/** A target's record differs from its plan when off by at least this share and at least MIN_OFF_SECONDS. */
const MIN_OFF_SHARE = 0.1;
const MIN_OFF_SECONDS = 0.5;
/** A push is named when its bytes are outside [plan ÷ this, plan × this]. */
const BYTES_OFF_FACTOR = 1.5;
const LISTED = 3;

/** The one rule for seconds (shared/format-units.ts), so a note's figures read as the report's tables do. */

function isWarm(run: RunFile | undefined): boolean {
  return run?.harness === 'warm' || run?.mode === 'warm';
}

/** "measured 58s against 40s planned (+45 %)" for the builds of the named targets that have both figures. */
function compareBuilds(
  plan: ReportPlan,
  names: readonly string[],
  targets: PlanNotesOptions['targets'],
): string {
  let [measured, planned, count] = [0, 0, 0];
  for (const name of names) {
    const t = targets?.find((x) => x.target === name);
    const p = plan.targets[name]?.buildSeconds;
    if (t?.buildSeconds == null || p === undefined) continue;
    [measured, planned, count] = [measured + t.buildSeconds, planned + p, count + 1];
  }
  if (count === 0 || planned <= 0) return '';
  return `; measured, ${count === names.length ? 'their' : `${count} of their`} builds took ${formatDuration(measured)} against ${formatDuration(planned)} planned (${formatShare(measured / planned - 1)})`;
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
function describeColdFigures(
  run: RunFile | undefined,
  plan: ReportPlan,
  targets: PlanNotesOptions['targets'],
): string | undefined {
  if (!isWarm(run)) return undefined;
  const all = Object.keys(plan.targets);
  const count = all.length;
  const coldNames = plan.costs.mode === 'cold' ? all : plan.costs.coldBuildFor;
  const cold = coldNames.length;
  if (cold === 0) return undefined;
  const fix = adviseCostsFrom(run, coldNames, '`warm-build` lines');
  const measured = compareBuilds(plan, coldNames, targets);
  if (plan.costs.mode === 'cold')
    return `planned without warm figures: this warm run was planned with cold build seconds for all ${count} targets (a cold plan)${measured}; ${fix}, then plan with \`--mode warm\``;
  if (cold === count)
    return `planned without warm figures: no \`warm-build\` line for any of the ${count} targets, so the plan used cold build seconds${measured}; ${fix}`;
  const names = coldNames.slice(0, 5).join(', ');
  const more = cold > 5 ? ` and ${cold - 5} more` : '';
  return `planned partly without warm figures: cold build seconds for ${cold} of ${count} targets (${names}${more}: no \`warm-build\` line)${measured}; ${fix}`;
}

const formatShare = (share: number) => `${share >= 0 ? '+' : '−'}${Math.round(Math.abs(share) * 100)} %`;
const formatBytesExact = (bytes: number) => `${formatCount(bytes)} B`;

interface TargetOff {
  name: string;
  node: string;
  measured: number;
  planned: number;
  push: string;
}

/** Each finished target's record against its planned duration (build + export + setup on its planned node). */
function findTargetsOff(plan: ReportPlan, targets: NonNullable<PlanNotesOptions['targets']>): TargetOff[] {
  return targets.flatMap((t): TargetOff[] => {
    const p = plan.targets[t.target];
    if (!p || t.status !== 'ok' || t.totalSeconds === null) return [];
    const planned = p.finishSeconds - p.startSeconds;
    const off = Math.abs(t.totalSeconds - planned);
    if (off < MIN_OFF_SECONDS || off < MIN_OFF_SHARE * planned) return [];
    const bytesOff =
      p.plannedBytes !== undefined &&
      t.uploadBytes !== null &&
      (t.uploadBytes > p.plannedBytes * BYTES_OFF_FACTOR ||
        t.uploadBytes * BYTES_OFF_FACTOR < p.plannedBytes);
    const push = bytesOff
      ? `; it pushed ${formatBytesExact(t.uploadBytes!)} against the ${formatBytesExact(p.plannedBytes!)} the plan charged`
      : '';
    return [{ name: t.target, node: t.node, measured: t.totalSeconds, planned, push }];
  });
}

function listTargets(list: readonly TargetOff[]): string {
  const shown = [...list]
    .sort((a, b) => Math.abs(b.measured - b.planned) - Math.abs(a.measured - a.planned))
    .slice(0, LISTED)
    .map(
      (t) =>
        `${t.name} on ${t.node} ${formatDuration(t.measured)} against ${formatDuration(t.planned)} (${t.measured >= t.planned ? '+' : '−'}${formatDuration(Math.abs(toShownDifference(t.measured, t.planned)))}${t.push})`,
    );
  return `${shown.join('; ')}${list.length > LISTED ? `; and ${list.length - LISTED} more` : ''}`;
}

/** The finished run's makespan against the plan, and the targets off their plan, each way. */
function compareWithPlan(
  plan: ReportPlan,
  targets: NonNullable<PlanNotesOptions['targets']>,
  makespanSeconds: number,
): string {
  const diff = makespanSeconds - plan.makespanSeconds;
  const way =
    Math.abs(diff) < MIN_OFF_SECONDS
      ? 'as planned'
      : `${formatDuration(Math.abs(toShownDifference(makespanSeconds, plan.makespanSeconds)))} ${diff > 0 ? 'longer' : 'shorter'} than planned (${formatShare(diff / plan.makespanSeconds)})`;
  const off = findTargetsOff(plan, targets);
  const longer = off.filter((t) => t.measured > t.planned);
  const shorter = off.filter((t) => t.measured < t.planned);
  const parts = [
    longer.length > 0 ? `longer than planned: ${listTargets(longer)}` : undefined,
    shorter.length > 0 ? `shorter than planned: ${listTargets(shorter)}` : undefined,
  ].flatMap((part) => (part === undefined ? [] : [part]));
  const rest =
    parts.length === 0
      ? `every target within ${MIN_OFF_SHARE * 100} % (or ${MIN_OFF_SECONDS}s) of its plan`
      : parts.join('. ');
  return `measured ${formatDuration(makespanSeconds)} against the plan's ${formatDuration(plan.makespanSeconds)}: ${way}. Per target (record against planned build + export + setup): ${rest}`;
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
  targets,
  makespanSeconds,
  lowerBoundSeconds,
}: PlanNotesOptions): string[] {
  if (plan === undefined) return [];
  const cold = describeColdFigures(run, plan, targets);
  const wholeExport = describeWholeExport(run, plan);
  const notes = [cold, wholeExport].flatMap((note) => (note === undefined ? [] : [note]));
  const finished = run?.status === 'completed';
  if (finished && makespanSeconds !== null && targets !== undefined && targets.length > 0)
    notes.push(compareWithPlan(plan, targets, makespanSeconds));
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
      `measured ${formatDuration(makespanSeconds)} is under the plan's lower bound ${formatDuration(lowerBoundSeconds)}, which no schedule can beat on the plan's figures: ${why}`,
    );
  }
  return notes;
}
