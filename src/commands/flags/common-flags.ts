import type { ConfigOverrides } from '../../config/index.js';
import { toBuildxOverride } from '../../config/to-buildx-override.js';
import type { DispatchMode } from '../../artifacts/index.js';
import type { FlagSpec } from './flag-table.js';
import { absoluteDir, nameList, optionalText, positiveInteger, switchValue, text } from './value-schemas.js';

// Flags several commands share, spelled once so every subcommand and the Makefile shims agree on them.

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'silent'] as const;

export const commonFlags = {
  fleet: {
    flags: '--fleet <file>',
    description: 'fleet manifest',
    env: 'PERF_FLEET',
    default: 'fleet.yaml',
    value: text,
  },
  logLevel: {
    flags: '--log-level <level>',
    description: `level of the run events echoed on stderr (run.log keeps them all): ${LOG_LEVELS.join(', ')}`,
    default: 'warn',
    value: (z) => z.enum(LOG_LEVELS),
    expected: `one of ${LOG_LEVELS.join(', ')}`,
    example: 'info',
  },
  debug: { flags: '--debug', description: 'print stacks on error', default: false, value: switchValue },
} satisfies Record<string, FlagSpec>;

export const jsonFlag = {
  flags: '--json',
  description: 'print a JSON document on stdout',
  default: false,
  value: switchValue,
} satisfies FlagSpec;

export const rootFlag = {
  flags: '--root <dir>',
  description: 'runs root',
  env: 'PERF_ROOT',
  default: '/var/tmp/rocm-perf',
  value: absoluteDir,
} satisfies FlagSpec;

export const costsFlag = {
  flags: '--costs <file>',
  description: 'target cost file (default: `costs` in fleet.yaml)',
  value: optionalText,
} satisfies FlagSpec;

export const bakeJsonFlag = {
  flags: '--bake-json <file>',
  description: 'a saved `docker buildx bake --print` JSON (default: from fleet.yaml)',
  value: optionalText,
} satisfies FlagSpec;

/** `--dispatch`'s default, written once: bench (no such flag) runs it too (toHarnessDispatch). */
export const DEFAULT_DISPATCH = 'fixed' satisfies DispatchMode;

/** Every mode, checked against the run file's type in both directions. */
const DISPATCH_MODES = { fixed: 'fixed', guided: 'guided' } as const satisfies { [M in DispatchMode]: M };

export const dispatchFlag = {
  flags: '--dispatch <mode>',
  description:
    'fixed: each node runs its plan queue; guided: an idle node takes a ready target whose planned finish it would not delay',
  default: DEFAULT_DISPATCH,
  value: (z) => z.enum(DISPATCH_MODES),
  expected: 'fixed or guided',
  example: 'guided',
} satisfies FlagSpec;

/** How the forecast places and draws (plan, cold and warm). */
export const forecastFlags = {
  placeFor: {
    flags: '--place-for <median|p90>',
    description:
      'place targets for the median-cost makespan, or for the forecast p90 (robust placement: plans on costs at their 75th and 90th percentiles too and keeps the lowest forecast p90)',
    default: 'median',
    value: (z) => z.enum(['median', 'p90']),
    expected: 'median or p90',
    example: 'p90',
  },
  draws: {
    flags: '--draws <n>',
    description:
      'the most Monte Carlo draws behind the forecast band; it stops earlier once the band has settled (500 or fewer: exactly that many)',
    default: '2000',
    value: positiveInteger,
    expected: 'a whole number of draws, at least 1',
    example: '2000',
  },
} satisfies Record<string, FlagSpec>;

/** What plan, cold, warm and bench plan from. */
export const planInputFlags = {
  costs: costsFlag,
  bakeJson: bakeJsonFlag,
  targets: {
    flags: '--targets <list>',
    description: 'comma-separated targets or groups, or `all`',
    env: 'PERF_TARGETS',
    value: nameList,
    example: 'pytorch,vllm-wheel',
  },
  arch: {
    flags: '--arch <arch>',
    description: 'GPU architecture (default: `arch` in fleet.yaml)',
    env: 'PERF_ARCH',
    value: optionalText,
    example: 'gfx1201',
  },
  // No `env` here: PERF_BUILDX is read with the config (resolve-config.ts), so messages can say which one set it.
  buildx: {
    flags: '--buildx <path>',
    description:
      'a standalone buildx binary to run instead of `docker buildx` (default: PERF_BUILDX, then `bake.buildx` in fleet.yaml)',
    value: optionalText,
    example: '/usr/local/bin/buildx',
  },
} satisfies Record<string, FlagSpec>;

/** The plan-input flags as the config loader's overrides (flags win over the environment and fleet.yaml). */
export function toPlanInputOverrides(values: {
  arch: string | undefined;
  targets: string[] | undefined;
  costs: string | undefined;
  bakeJson: string | undefined;
  buildx: string | undefined;
}): ConfigOverrides {
  return {
    arch: values.arch,
    targets: values.targets,
    costsPath: values.costs,
    bakePrintPath: values.bakeJson,
    buildx: toBuildxOverride(values.buildx, '--buildx'),
  };
}
