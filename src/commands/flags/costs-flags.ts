import { commonFlags, costsFlag, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';
import { optionalText, switchValue } from './value-schemas.js';

// `rocm-perf costs --from RUN...`.

export const costsCommand = defineCommand({
  name: 'costs',
  description:
    "derive build seconds and byte figures from runs' traces (a warm run's as `cache`, a cold or bench run's as `image`; median and spread over the runs), rewrite the target costs, and measure each node's upload link and speed against fleet.yaml",
  examples: [
    'rocm-perf costs --from 20260314T092000Z-k3m9q2 --dry-run',
    'rocm-perf costs --from 20260314T092000Z-k3m9q2 20260315T092000Z-p4t7w1 20260316T092000Z-c8d2h5',
    'rocm-perf costs --from 20260314T092000Z-k3m9q2 --from 20260315T092000Z-p4t7w1 --write-fleet',
  ],
  env: [],
  arguments: {},
  flags: {
    ...commonFlags,
    from: {
      flags: '--from <run...>',
      description:
        'run dirs (or stamps under --root), all of one harness, lane and arch: several after one --from, or --from repeated',
      required: true,
      value: (z) => z.array(z.string().min(1)).min(1),
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
      description: 'print the new file instead of writing it (and write nothing into fleet.yaml)',
      default: false,
      value: switchValue,
    },
    allowPartial: {
      flags: '--allow-partial',
      description:
        "take figures from a run whose checks flagged files (a changed digest, a trace not this run's: see `rocm-perf report`); the flagged files' figures are left out, never written. Without it such a run is refused, exit 2",
      default: false,
      value: switchValue,
    },
    allowOtherFleet: {
      flags: '--allow-other-fleet',
      description:
        "learn from runs recorded on another fleet or scale than --fleet's (run.json's nodes, addresses, links or speeds differ), which is refused otherwise",
      default: false,
      value: switchValue,
    },
    allowOtherBake: {
      flags: '--allow-other-bake',
      description:
        "learn from runs recorded with another bake definition than fleet.yaml's bake print gives now (a target's bake entry, or a dependency's, changed, or the target is gone: run.json's `bake` digests differ), which is refused otherwise",
      default: false,
      value: switchValue,
    },
    writeFleet: {
      flags: '--write-fleet',
      description:
        'write the suggested link_mbps and speed changes into fleet.yaml, in place (comments and layout kept)',
      default: false,
      value: switchValue,
    },
  },
});

export type CostsValues = CommandValues<typeof costsCommand>;
