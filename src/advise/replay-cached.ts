import type { AdviseInput } from './advise-input.js';
import { describeSaving, notReplayable } from './describe-saving.js';
import { cacheSteps, replayWhatIf } from './replay-what-if.js';

// The saving of an input that defeats the cache: the run replayed with the targets it made miss (and those rebuilt
// after them, data.json `why.rebuiltAfter`) taking their build figure less the steps that ran, i.e. with those
// steps cached. Pure.

export interface CachedSaving {
  savingSeconds: number | null;
  evidence: string[];
}

export function replayCached(input: AdviseInput, targets: readonly string[]): CachedSaving {
  if (targets.length === 0)
    return { savingSeconds: 0, evidence: ['saving: 0: no target missed because of it in this run'] };
  const side = input.side;
  if (!side) return { savingSeconds: null, evidence: [notReplayable(input)] };
  const rebuilt = new Set(targets);
  for (const target of input.model.summary.targets)
    if (rebuilt.has(target.target)) for (const after of target.why?.rebuiltAfter ?? []) rebuilt.add(after);
  const missing = [...rebuilt].filter((t) => !side.targets[t] || !input.uncachedSeconds.has(t)).sort();
  if (missing.length > 0)
    return {
      savingSeconds: null,
      evidence: [`saving: not replayable: no replayable figures or trace steps for ${missing.join(', ')}`],
    };
  const names = [...rebuilt].sort();
  const replay = replayWhatIf(side, (copy) => {
    for (const name of names) cacheSteps(copy, name, input.uncachedSeconds.get(name)!);
  });
  return {
    savingSeconds: replay.savingSeconds,
    evidence: [describeSaving(replay, `the steps that ran in ${names.join(', ')} cached`)],
  };
}

/** The targets a cause made miss: those whose `why` names it, or, with no `why` in the run, those that took it and missed. */
export function findMissedBy(
  input: AdviseInput,
  candidates: readonly string[],
  isCause: (
    cause: NonNullable<NonNullable<AdviseInput['model']['summary']['targets'][number]['why']>['cause']>,
  ) => boolean,
): { targets: string[]; evidence: string } {
  const rows = input.model.summary.targets.filter((t) => candidates.includes(t.target));
  const explained = input.model.summary.targets.some((t) => t.why !== null);
  if (explained) {
    const targets = rows.filter((t) => t.why?.cause && isCause(t.why.cause)).map((t) => t.target);
    return {
      targets,
      evidence: `data.json why: ${targets.length > 0 ? `${targets.join(', ')} missed because of it` : 'no target missed because of it in this run'}`,
    };
  }
  const targets = rows
    .filter((t) => t.cachedSteps !== null && t.totalSteps !== null && t.cachedSteps < t.totalSteps)
    .map((t) => t.target);
  return {
    targets,
    evidence: `data.json has no why for this run: counted the targets that take it and ran steps (${targets.join(', ') || 'none'})`,
  };
}
