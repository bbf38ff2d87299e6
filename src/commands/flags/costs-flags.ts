import { commonFlags, costsFlag, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';
import { optionalText, switchValue } from './value-schemas.js';

// `rocm-perf costs --from RUN`.

export const costsCommand = defineCommand({
  name: 'costs',
  description: "derive build seconds and cache bytes from a run's traces and rewrite the target costs",
  examples: [
    'rocm-perf costs --from 20260314T092000Z-k3m9q2 --dry-run',
    'rocm-perf costs --from 20260314T092000Z-k3m9q2',
  ],
  env: [],
  arguments: {},
  flags: {
    ...commonFlags,
    from: {
      flags: '--from <run>',
      description: 'run dir (or a stamp under --root)',
      required: true,
      value: (z) => z.string(),
    },
    root: rootFlag,
    costs: costsFlag,
    out: {
      flags: '--out <file>',
      description: 'write here instead of the costs file fleet.yaml names',
      value: optionalText,
    },
    dryRun: {
      flags: '--dry-run',
      description: 'print the new file instead of writing it',
      default: false,
      value: switchValue,
    },
  },
});

export type CostsValues = CommandValues<typeof costsCommand>;
