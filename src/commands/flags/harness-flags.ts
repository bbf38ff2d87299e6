import { homedir } from 'node:os';
import path from 'node:path';
import type { DispatchMode, Harness } from '../../artifacts/index.js';
import {
  commonFlags,
  DEFAULT_DISPATCH,
  dispatchFlag,
  forecastFlags,
  jsonFlag,
  planInputFlags,
  rootFlag,
} from './common-flags.js';
import type { OtherEnvVar } from './env-vars.js';
import { defineCommand, type CommandValues, type FlagSpec } from './flag-table.js';
import { strategyFlag } from './plan-flags.js';
import { optionalText, positiveNumber } from './value-schemas.js';

// cold, warm and bench: one definition, their differences as data.

/**
 * One sample per node this often unless `--sample-interval-ms` says otherwise: the only place it is written (the
 * samplers below take it as a required `sampleIntervalMs`).
 */
const DEFAULT_SAMPLE_INTERVAL_MS = 2_000;

/** How often a run reads the followed cache logs (no flag): handed to runHarness as `logPollIntervalMs`. */
export const HARNESS_LOG_POLL_INTERVAL_MS = 5_000;

interface HarnessRow {
  description: string;
  examples: readonly string[];
  env: readonly OtherEnvVar[];
  /** bench is serial: nothing to dispatch. */
  dispatch: boolean;
}

const HARNESS_COMMANDS = {
  cold: {
    description:
      'cold run: --no-cache, own sccache prefix, pushes into the coldrun namespace, cache export off',
    examples: ['rocm-perf cold --arch gfx1201', 'rocm-perf cold --targets pytorch --dispatch guided'],
    env: ['REGISTRY_NAME', 'PERF_COLD_NAMESPACE', 'SSH_AUTH_SOCK', 'DOCKER_CONFIG', 'GITHUB_STEP_SUMMARY'],
    dispatch: true,
  },
  warm: {
    description: 'warm run: caches on, pushes, cache export kept and measured as upload',
    examples: ['rocm-perf warm', 'rocm-perf warm --plan plan.json --json'],
    env: ['REGISTRY_NAME', 'SSH_AUTH_SOCK', 'DOCKER_CONFIG', 'GITHUB_STEP_SUMMARY'],
    dispatch: true,
  },
  bench: {
    description:
      'what each target costs: one at a time across the fleet, --no-cache, own sccache prefix and bench namespace, cache export off',
    examples: ['rocm-perf bench --targets pytorch,triton-wheel'],
    env: ['REGISTRY_NAME', 'SSH_AUTH_SOCK', 'DOCKER_CONFIG', 'GITHUB_STEP_SUMMARY'],
    dispatch: false,
  },
} as const satisfies Record<Harness, HarnessRow>;

function createHarnessFlags(dispatch: boolean) {
  return {
    ...commonFlags,
    ...planInputFlags,
    root: rootFlag,
    json: jsonFlag,
    strategy: strategyFlag,
    plan: {
      flags: '--plan <file>',
      description: 'run a saved plan.json instead of planning now',
      value: optionalText,
    },
    sampleIntervalMs: {
      flags: '--sample-interval-ms <ms>',
      description:
        'node_exporter scrape interval; the RUN step cgroups are polled at it too, at most 1 s apart',
      default: String(DEFAULT_SAMPLE_INTERVAL_MS),
      value: positiveNumber,
      expected: 'a positive number of milliseconds',
      example: String(DEFAULT_SAMPLE_INTERVAL_MS),
    },
    ...(dispatch ? { dispatch: dispatchFlag, ...forecastFlags } : {}),
  } satisfies Record<string, FlagSpec>;
}

export function createHarnessCommand(harness: Harness) {
  const row: HarnessRow = HARNESS_COMMANDS[harness];
  return defineCommand({
    name: harness,
    description: row.description,
    examples: row.examples,
    env: row.env,
    arguments: {},
    flags: createHarnessFlags(row.dispatch),
  });
}

export type HarnessValues = CommandValues<ReturnType<typeof createHarnessCommand>>;

/** The harness's environment variables beyond its flags' own, read here once and handed down typed. */
export function toHarnessEnv(env: Readonly<Record<string, string | undefined>>): {
  coldNamespaceSuffix: string;
  /** Where docker keeps the registry credentials: DOCKER_CONFIG, else ~/.docker (docker's own default). */
  dockerConfigDir: string;
} {
  return {
    coldNamespaceSuffix: env.PERF_COLD_NAMESPACE ?? '',
    dockerConfigDir: env.DOCKER_CONFIG ?? path.join(homedir(), '.docker'),
  };
}

/** `--dispatch` as runHarness takes it: bench has no such flag and runs its serial queue as the default, fixed. */
export function toHarnessDispatch(values: { dispatch?: DispatchMode | undefined }): DispatchMode {
  return values.dispatch ?? DEFAULT_DISPATCH;
}
