import { Option } from 'commander';

// Shared flags: one table, so every subcommand spells them the same way and the Makefile shims can rely on them.

export interface CommonOptions {
  fleet: string;
  logLevel: string;
  debug: boolean;
  json: boolean;
}

export interface PlanInputOptions extends CommonOptions {
  costs?: string;
  bakeJson?: string;
  targets?: string;
  arch?: string;
}

export const commonFlags = {
  fleet: () => new Option('--fleet <file>', 'fleet manifest').env('PERF_FLEET').default('fleet.yaml'),
  logLevel: () =>
    new Option('--log-level <level>', 'log level for stderr')
      .choices(['trace', 'debug', 'info', 'warn', 'error', 'silent'])
      .default('warn'),
  debug: () => new Option('--debug', 'print stacks on error').default(false),
  json: () => new Option('--json', 'print a JSON document on stdout').default(false),
  costs: () => new Option('--costs <file>', 'target cost file (default: `costs` in fleet.yaml)'),
  bakeJson: () =>
    new Option('--bake-json <file>', 'a saved `docker buildx bake --print` JSON (default: from fleet.yaml)'),
  targets: () =>
    new Option('--targets <list>', 'comma-separated targets or groups, or `all`').env('PERF_TARGETS'),
  arch: () => new Option('--arch <arch>', 'GPU architecture').env('PERF_ARCH'),
  root: () => new Option('--root <dir>', 'runs root').env('PERF_ROOT').default('/var/tmp/rocm-perf'),
} as const;

/** Split a --targets value into names. */
export function parseTargetList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value.split(/[\s,]+/).filter(Boolean);
}
