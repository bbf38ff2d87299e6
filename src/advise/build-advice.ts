import type { Advice } from '../artifacts/index.js';
import type { AdviseInput } from './advise-input.js';
import { adviseDoubleCachePushes } from './advise-double-cache-pushes.js';
import { adviseLinkBoundExports } from './advise-link-bound-exports.js';
import { adviseMemoryMisfits } from './advise-memory-misfits.js';
import { adviseMovingTags } from './advise-moving-tags.js';
import { adviseVolatileInputs } from './advise-volatile-inputs.js';

// The advisor: every rule over one run, ranked by the makespan its what-if replay saves (largest first; an action
// whose saving could not be replayed after every replayed one; ties by kind, then target). Pure; [] is an answer.

const rules = [
  adviseVolatileInputs,
  adviseMovingTags,
  adviseMemoryMisfits,
  adviseLinkBoundExports,
  adviseDoubleCachePushes,
];

export function buildAdvice(input: AdviseInput): Advice[] {
  const bySaving = (a: Advice, b: Advice) =>
    a.savingSeconds === null || b.savingSeconds === null
      ? Number(a.savingSeconds === null) - Number(b.savingSeconds === null)
      : b.savingSeconds - a.savingSeconds;
  return rules
    .flatMap((rule) => rule(input))
    .sort(
      (a, b) =>
        bySaving(a, b) ||
        a.kind.localeCompare(b.kind) ||
        (a.targets[0] ?? '').localeCompare(b.targets[0] ?? ''),
    );
}
