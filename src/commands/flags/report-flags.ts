import { commonFlags, jsonFlag, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';

// `rocm-perf report [RUN_DIR]`.

export const reportCommand = defineCommand({
  name: 'report',
  description: 'data.json, report.md with SVG charts and index.html for a run dir (default: the newest run)',
  examples: ['rocm-perf report', 'rocm-perf report 20260314T092000Z-k3m9q2 --json'],
  env: [],
  arguments: {
    runDir: {
      syntax: '[run-dir]',
      description: 'the run dir, or a stamp under --root (default: the newest under --root)',
      value: (z) => z.string().optional(),
    },
  },
  flags: { ...commonFlags, root: rootFlag, json: jsonFlag },
});

export type ReportValues = CommandValues<typeof reportCommand>;
