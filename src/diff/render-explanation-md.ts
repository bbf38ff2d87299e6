import type { RunDiff } from './build-run-diff.js';
import { NO_EXPLANATION } from './build-diff-explanation.js';
import type { CauseShare, MakespanExplanation } from './build-makespan-explanation.js';
import { formatDelta, formatPercent, formatPreciseSeconds, formatSignedSeconds } from './format-delta.js';

// The opening of a diff: the makespan change split by cause, one sentence per cause, largest first, then how the
// split was made and how well the replays reproduce each run. Pure. Causes under 1 % of the change (and under
// 0.01 s) are summed into one line; --json lists them all.

export interface ShownCauses {
  shown: CauseShare[];
  /** The small causes summed into one line; null when none. */
  rest: { count: number; seconds: number } | null;
}

/** Every cause of at least max(0.01 s, 1 % of the change) and `other`; the rest summed (kept when alone). */
export function toShownCauses(explanation: MakespanExplanation): ShownCauses {
  const floor = Math.max(0.01, 0.01 * Math.abs(explanation.actualSeconds.delta ?? 0));
  const small = explanation.causes.filter((c) => c.kind !== 'other' && Math.abs(c.shareSeconds) < floor);
  if (small.length < 2) return { shown: explanation.causes, rest: null };
  const seconds = Math.round(small.reduce((total, c) => total + c.shareSeconds, 0) * 1000) / 1000;
  return {
    shown: explanation.causes.filter((c) => !small.includes(c)),
    rest: { count: small.length, seconds },
  };
}

export function describeMethod(explanation: MakespanExplanation): string {
  const { method } = explanation;
  const causes = `${method.causes} ${method.causes === 1 ? 'cause differs' : 'causes differ'}`;
  if (method.kind === 'exact') return `Shapley values, exact over every subset (${causes})`;
  const errors = explanation.causes.map((c) => c.standardErrorSeconds ?? 0);
  return `Shapley values, sampled: ${method.permutations} permutations, seed ${method.seed} (${causes}; largest standard error ${formatPreciseSeconds(Math.max(0, ...errors))})`;
}

export function describeModelCheck(explanation: MakespanExplanation): string {
  const side = (label: 'A' | 'B', key: 'a' | 'b') =>
    `${formatPreciseSeconds(explanation.modelSeconds[key])} for ${label} (measured ${formatPreciseSeconds(explanation.actualSeconds[key])}, error ${formatSignedSeconds(explanation.modelErrorSeconds[key], { precise: true })})`;
  return `Model check: replaying each run with its own figures gives ${side('A', 'a')} and ${side('B', 'b')}.`;
}

export function renderExplanationMd(diff: RunDiff): string[] {
  const lines = ['## Why the makespan changed', ''];
  const explanation = diff.explanation;
  if (!explanation) {
    const reason = diff.notes.find((note) => note.startsWith(NO_EXPLANATION)) ?? NO_EXPLANATION;
    return [...lines, `**Makespan:** ${formatDelta(diff.makespanSeconds, 'seconds')}; ${reason}.`, ''];
  }
  const { shown, rest } = toShownCauses(explanation);
  const change = explanation.actualSeconds;
  lines.push(
    `**Makespan:** ${formatPreciseSeconds(change.a)} → ${formatPreciseSeconds(change.b)} (${formatSignedSeconds(change.delta ?? 0, { precise: true })}, ${formatPercent(change.pct)}), split by cause; the lines add up to the change:`,
    '',
    ...shown.filter((c) => c.kind !== 'other').map((c) => `- ${c.sentence}`),
  );
  if (rest)
    lines.push(
      `- ${formatSignedSeconds(rest.seconds)} ${rest.count} smaller causes (each under 1 % of the change; all in --json)`,
    );
  lines.push(...shown.filter((c) => c.kind === 'other').map((c) => `- ${c.sentence}`));
  lines.push(
    '',
    `How: counterfactual replays of fixed per-node queues with B's figure for some causes and A's for the rest; ${describeMethod(explanation)}. ${describeModelCheck(explanation)}`,
    ...explanation.notes.map((note) => `> **Note:** ${note}`),
    '',
  );
  return lines;
}
