import { commonFlags, jsonFlag, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';
import { optionalText, switchValue } from './value-schemas.js';

// `rocm-perf diff RUN_A RUN_B`.

export const diffCommand = defineCommand({
  name: 'diff',
  description:
    'what changed between two runs of the same harness, opening with the makespan change split by cause (target builds, node upload throughput, placement, waiting, other); then per target Δbuild, Δtotal, Δupload, Δbytes, node moves, makespan, critical path',
  examples: [
    'rocm-perf diff 20260313T180000Z-a1b2c3 20260314T092000Z-k3m9q2',
    'rocm-perf diff --force --json 20260313T180000Z-a1b2c3 20260314T092000Z-k3m9q2',
    'rocm-perf diff 20260313T180000Z-a1b2c3 20260314T092000Z-k3m9q2 --html diff.html',
  ],
  env: [],
  arguments: {
    runA: {
      syntax: '<run-a>',
      description: 'the earlier run: a run dir or a stamp under --root',
      value: (z) => z.string(),
    },
    runB: {
      syntax: '<run-b>',
      description: 'the later run: a run dir or a stamp under --root',
      value: (z) => z.string(),
    },
  },
  flags: {
    ...commonFlags,
    root: rootFlag,
    json: jsonFlag,
    force: {
      flags: '--force',
      description: 'compare runs of different harnesses anyway (the output says so)',
      default: false,
      value: switchValue,
    },
    html: {
      flags: '--html <file>',
      description: 'also write the diff as a self-contained HTML page (no script, no external file) to FILE',
      value: optionalText,
      example: 'diff.html',
    },
  },
});

export type DiffValues = CommandValues<typeof diffCommand>;
