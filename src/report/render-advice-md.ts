import type { Advice } from '../artifacts/index.js';
import { formatDuration } from '../shared/format-units.js';
import { toInertMarkdown } from './to-inert-markdown.js';

// The advisor's ranked actions as markdown lines: report.md's "Advice" section and `rocm-perf advise`. Pure.

function renderSaving(advice: Advice): string {
  if (advice.savingSeconds === null) return 'saving not replayable';
  if (advice.savingSeconds <= 0)
    return advice.savingSeconds < 0
      ? `costs ${formatDuration(-advice.savingSeconds)} of makespan`
      : 'saves nothing in this run';
  return `saves ${formatDuration(advice.savingSeconds)} of makespan`;
}

/** Numbered actions with their evidence; `nothing to advise` for an empty list; nothing at all for null. */
export function renderAdviceMd(advice: readonly Advice[] | null): string[] {
  if (advice === null) return [];
  if (advice.length === 0) return ['nothing to advise: no rule found an action in this run'];
  return advice.flatMap((entry, index) => [
    `${index + 1}. **${entry.kind}** (${renderSaving(entry)}): ${toInertMarkdown(entry.action)}`,
    ...entry.evidence.map((line) => `   - ${toInertMarkdown(line)}`),
  ]);
}
