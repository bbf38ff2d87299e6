import { commonFlags, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';
import { optionalText, switchValue } from './value-schemas.js';

// `rocm-perf export --perfetto RUN`.

export const exportCommand = defineCommand({
  name: 'export',
  description:
    'export a run for other tools: --perfetto writes a Chrome JSON trace that ui.perfetto.dev opens',
  examples: [
    'rocm-perf export --perfetto 20260314T092000Z-k3m9q2',
    'rocm-perf export --perfetto 20260314T092000Z-k3m9q2 --out trace.json',
  ],
  env: [],
  arguments: {
    run: { syntax: '<run>', description: 'a run dir or a stamp under --root', value: (z) => z.string() },
  },
  flags: {
    ...commonFlags,
    root: rootFlag,
    perfetto: {
      flags: '--perfetto',
      description: 'Chrome Trace Event Format JSON for ui.perfetto.dev',
      default: false,
      value: switchValue,
    },
    out: {
      flags: '--out <file>',
      description: 'where to write (default: RUN/perfetto-trace.json; `-` for stdout)',
      value: optionalText,
    },
  },
});

export type ExportValues = CommandValues<typeof exportCommand>;
