import { CONTRACT_PAIRS } from '../../contracts/contract-pairs.js';
import { bakeJsonFlag, commonFlags, costsFlag, jsonFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';
import { nameList, optionalText, switchValue } from './value-schemas.js';

// `rocm-perf contracts`: its flags and what each value must be.

export const contractsCommand = defineCommand({
  name: 'contracts',
  description:
    "check users' files and hosts still agree with the CLI (reads files; runs the Makefile shims with a stub CLI)",
  examples: ['rocm-perf contracts', 'rocm-perf contracts --only target-costs,fleet-schema --verbose'],
  env: ['SSH_AUTH_SOCK'],
  arguments: {},
  flags: {
    ...commonFlags,
    // No default: an unset --fleet means the one under --repo.
    fleet: {
      flags: '--fleet <file>',
      description: 'fleet manifest (default: fleet.yaml under --repo)',
      env: 'PERF_FLEET',
      value: optionalText,
    },
    json: jsonFlag,
    costs: costsFlag,
    bakeJson: bakeJsonFlag,
    repo: {
      flags: '--repo <dir>',
      description: 'repository root holding the producer files (default: the current directory)',
      value: optionalText,
    },
    conf: {
      flags: '--conf <file>',
      description: 'nginx sccache conf (default: .builders/nginx-sccache.conf)',
      value: optionalText,
    },
    makefile: {
      flags: '--makefile <file>',
      description: 'Makefile with the perf-* shims (default: Makefile)',
      value: optionalText,
    },
    schemaJson: {
      flags: '--schema-json <file>',
      description: 'shipped JSON schema of fleet.yaml (default: rocm-perf.schema.json)',
      value: optionalText,
    },
    prometheusRules: {
      flags: '--prometheus-rules <file>',
      description:
        'Prometheus alert rules to check against the series serve exports (default: contrib/prometheus/rocm-perf-rules.yml)',
      value: optionalText,
    },
    zotConfig: {
      flags: '--zot-config <file>',
      description: "the registry host's Zot config, to check its log settings",
      value: optionalText,
    },
    remote: {
      flags: '--remote',
      description: 'also fetch the nginx conf deployed on the cache host over ssh (read-only)',
      default: false,
      value: switchValue,
    },
    deployedConf: {
      flags: '--deployed-conf <path>',
      description: 'path of the deployed nginx conf on the cache host',
      default: '/etc/nginx/conf.d/sccache.conf',
      value: (z) => z.string(),
    },
    only: {
      flags: '--only <pairs>',
      description: `comma-separated pairs to check: ${CONTRACT_PAIRS.join(', ')}`,
      value: (z) => nameList(z).pipe(z.array(z.enum(CONTRACT_PAIRS)).optional()),
      expected: `a comma-separated list of ${CONTRACT_PAIRS.join(', ')}`,
      example: 'target-costs,fleet-schema',
    },
    verbose: {
      flags: '--verbose',
      description: 'print what each pair checked',
      default: false,
      value: switchValue,
    },
  },
});

export type ContractsValues = CommandValues<typeof contractsCommand>;
