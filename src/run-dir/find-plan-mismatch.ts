import type { Plan, RunFile } from '../artifacts/index.js';

// Is plan.json the plan this run used? A run that recorded plan.json's digest answers byte for byte; an older run
// is held to what it did record: the targets it ran and the nodes they were placed on. A plan that fails is not
// used: the planned figures are left out (a loud warning names plan.json), and measured figures never read it. Pure.

const list = (names: readonly string[]) =>
  names.length <= 4 ? names.join(', ') : `${names.slice(0, 4).join(', ')} and ${names.length - 4} more`;

export function findPlanMismatch({
  run,
  plan,
  digest,
}: {
  run: RunFile | undefined;
  plan: Plan | undefined;
  /** find-digest-mismatch.ts's finding for plan.json, when run.json recorded its digest. */
  digest: string | undefined;
}): string | undefined {
  if (digest !== undefined)
    return plan === undefined
      ? 'plan.json: absent, but run.json recorded the plan this run used; planned figures are left out (measured figures never read plan.json)'
      : `${digest.replace(/its figures are marked partial$/, '')}not the plan this run used; planned figures are left out`;
  if (run === undefined || plan === undefined || run.files?.['plan.json'] !== undefined) return undefined;
  const ran = Object.keys(run.targets).sort();
  const planned = new Set(Object.keys(plan.targets));
  const unplanned = ran.filter((target) => !planned.has(target));
  const extra = [...planned].filter((target) => run.targets[target] === undefined).sort();
  if (unplanned.length > 0 || extra.length > 0) {
    const why = [
      unplanned.length > 0 ? `it lacks ${list(unplanned)}, which the run built` : '',
      extra.length > 0 ? `it plans ${list(extra)}, which the run never had` : '',
    ].filter(Boolean);
    return `plan.json: not the plan this run used (${why.join('; ')}); planned figures are left out`;
  }
  if (run.strategy !== undefined && plan.strategy !== run.strategy)
    return `plan.json: strategy ${plan.strategy}, but run.json says the run was planned with ${run.strategy}: not the plan this run used; planned figures are left out`;
  return undefined;
}
