import { commonFlags, jsonFlag, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';
import { positiveInteger } from './value-schemas.js';

// `rocm-perf advise RUN`.

export const adviseCommand = defineCommand({
  name: 'advise',
  description:
    'ranked actions for a run, each with the makespan it saves in a what-if replay of the run and its evidence: a build arg that changes every run, an input image whose tag moves (every run or once), a step whose memory does not fit its node, a link that makes an export dominate, a cache export that pushes the image layers again',
  examples: [
    'rocm-perf advise 20260314T092000Z-k3m9q2',
    'rocm-perf advise fixtures/runs/gfx1201-warm --json',
    'rocm-perf advise 20260314T092000Z-k3m9q2 --runs 8',
  ],
  env: [],
  arguments: {
    run: {
      syntax: '<run>',
      description:
        'the run dir, or a stamp under --root; its lane’s earlier runs are read from the same folder',
      value: (z) => z.string(),
    },
  },
  flags: {
    ...commonFlags,
    root: rootFlag,
    json: jsonFlag,
    runs: {
      flags: '--runs <n>',
      description:
        'how many runs of the lane (same lane, harness and arch, this one included) to compare args and input images over',
      default: '5',
      value: positiveInteger,
      expected: 'a whole number of runs, at least 1',
      example: '5',
    },
  },
});

export type AdviseValues = CommandValues<typeof adviseCommand>;
