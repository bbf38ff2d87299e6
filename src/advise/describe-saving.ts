import { formatDuration } from '../shared/format-units.js';
import type { AdviseInput } from './advise-input.js';
import type { WhatIf } from './replay-what-if.js';

// The evidence line every replayed saving carries, and the one a saving that could not be replayed carries. Pure.

export function describeSaving(replay: WhatIf, what: string): string {
  return `replay: the run as recorded ${formatDuration(replay.baselineSeconds)}; with ${what} ${formatDuration(replay.whatIfSeconds)}`;
}

export function notReplayable(input: Pick<AdviseInput, 'sideMissing'>): string {
  return `saving: not replayable: ${input.sideMissing ?? 'the run’s figures are missing'}`;
}
