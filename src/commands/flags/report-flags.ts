import { commonFlags, jsonFlag, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';
import { optionalText } from './value-schemas.js';

// `rocm-perf report [RUN_DIR]`.

export const reportCommand = defineCommand({
  name: 'report',
  description: 'data.json, report.md with SVG charts and index.html for a run dir (default: the newest run)',
  examples: [
    'rocm-perf report',
    'rocm-perf report 20260314T092000Z-k3m9q2 --json',
    'rocm-perf report 20260314T092000Z-k3m9q2 --against 20260313T180000Z-a1b2c3',
  ],
  env: [],
  arguments: {
    runDir: {
      syntax: '[run-dir]',
      description: 'the run dir, or a stamp under --root (default: the newest under --root)',
      value: (z) => z.string().optional(),
    },
  },
  flags: {
    ...commonFlags,
    root: rootFlag,
    json: jsonFlag,
    against: {
      flags: '--against <run>',
      description:
        'explain a warm or bench run’s cache misses against this run (a run dir or a stamp under --root; default: the newest earlier run of the same lane, harness and arch under the same runs root)',
      value: optionalText,
      example: '20260313T180000Z-a1b2c3',
    },
  },
});

export type ReportValues = CommandValues<typeof reportCommand>;
