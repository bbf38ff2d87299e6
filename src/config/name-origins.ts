import type { ConfigOverrides } from './resolve-config.js';

// Which flag, variable or file a plan input came from, so a message names what the user typed: `--targets nope`,
// `PERF_ARCH=gfx9999`, or fleet.yaml's `targets:`. Commander gives a flag its variable's value when the flag is
// absent, so a flag value equal to the variable's is named by the variable. Pure.

export interface InputOrigins {
  /** `--arch gfx9999`, `PERF_ARCH=gfx9999`, or undefined for fleet.yaml's own. */
  arch: string | undefined;
  /** `--targets nope,wheels`, `PERF_TARGETS=nope`, or undefined for fleet.yaml's own. */
  targets: string | undefined;
  /** `--costs FILE`, or undefined for the one fleet.yaml names. */
  costs: string | undefined;
  /** `--bake-json FILE`, or undefined for the one fleet.yaml names. */
  bakeJson: string | undefined;
}

const normalise = (value: string): string =>
  value
    .split(/[\s,]+/)
    .filter(Boolean)
    .join(',');

function nameOne(
  value: string | readonly string[] | undefined,
  { flag, variable, envValue }: { flag: string; variable?: string; envValue?: string | undefined },
): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : value.join(',');
  if (variable !== undefined && envValue !== undefined && normalise(envValue) === normalise(text))
    return `${variable}=${envValue}`;
  return `${flag} ${text}`;
}

export function nameInputOrigins(
  flags: ConfigOverrides,
  env: Readonly<Record<string, string | undefined>>,
): InputOrigins {
  return {
    arch: nameOne(flags.arch, { flag: '--arch', variable: 'PERF_ARCH', envValue: env.PERF_ARCH }),
    targets: nameOne(flags.targets, {
      flag: '--targets',
      variable: 'PERF_TARGETS',
      envValue: env.PERF_TARGETS,
    }),
    costs: nameOne(flags.costsPath, { flag: '--costs' }),
    bakeJson: nameOne(flags.bakePrintPath, { flag: '--bake-json' }),
  };
}
