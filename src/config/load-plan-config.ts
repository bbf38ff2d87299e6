import { readFile } from 'node:fs/promises';
import { ConfigError, UsageError } from '../shared/errors.js';
import { loadConfig } from './load-config.js';
import { parseTargetCosts, type TargetCost } from './parse-target-costs.js';
import { mergeOverrides, toEnvOverrides, type ConfigOverrides } from './resolve-config.js';
import type { Config } from './schema.js';

export interface PlanConfig {
  config: Config;
  costs: Map<string, TargetCost>;
  warnings: string[];
}

export interface LoadPlanConfigOptions {
  fleetPath: string;
  flags?: ConfigOverrides | undefined;
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** A file fleet.yaml or a flag names, or a UsageError naming it. */
export async function readNamedFile(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    throw new UsageError(`cannot read ${what} ${file}: ${(cause as Error).message}`, { cause });
  }
}

// Files only: fleet.yaml (with env and flag overrides) and the target costs it names.
export async function loadPlanConfig({
  fleetPath,
  flags = {},
  env = process.env,
}: LoadPlanConfigOptions): Promise<PlanConfig> {
  const overrides = mergeOverrides(toEnvOverrides(env), flags);
  const { config, warnings } = await loadConfig({ fleetPath, overrides });
  const costsText = await readNamedFile(config.costsPath, `target costs of ${config.arch}`);
  const parsed = parseTargetCosts(costsText, config.costsPath);
  if (parsed.errors.length > 0) throw new ConfigError(config.costsPath, parsed.errors);
  return { config, costs: parsed.costs, warnings };
}
