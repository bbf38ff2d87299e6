import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { toFileAccessError } from '../shared/to-file-access-error.js';
import { ConfigError, UsageError } from '../shared/errors.js';
import { loadConfig } from './load-config.js';
import { parseTargetCosts, type TargetCost } from './parse-target-costs.js';
import { nameInputOrigins, type InputOrigins } from './name-origins.js';
import { readKnownArches } from './read-known-arches.js';
import { ARCH_PLACEHOLDER, mergeOverrides, toEnvOverrides, type ConfigOverrides } from './resolve-config.js';
import type { Config } from './schema.js';

export interface PlanConfig {
  config: Config;
  costs: Map<string, TargetCost>;
  warnings: string[];
  /** How the user named each plan input, for messages. */
  origins: InputOrigins;
}

export interface LoadPlanConfigOptions {
  fleetPath: string;
  flags?: ConfigOverrides | undefined;
  /** The CLI's environment (REGISTRY_NAME, PERF_BUILDX; PERF_ARCH and PERF_TARGETS only to name where a value came from). */
  env: Readonly<Record<string, string | undefined>>;
}

export interface NamedFile {
  file: string;
  /** `target costs`, `bake print`. */
  what: string;
  /** The flag that would name another file: `--costs`, `--bake-json`. */
  flag: string;
  /** How the user named it (`--costs FILE`); undefined when fleet.yaml names it. */
  origin: string | undefined;
  arch: string;
  /** How the arch was chosen (`--arch gfx9999`, `PERF_ARCH=gfx9999`); undefined for fleet.yaml's own. */
  archOrigin: string | undefined;
}

async function describeMissingFile(named: NamedFile): Promise<UsageError> {
  const { file, what, flag, origin, arch, archOrigin } = named;
  if (origin !== undefined)
    return new UsageError(`${origin}: no such file`, { hint: `pass the ${what} file to ${flag}` });
  const base = path.basename(file);
  const template = base.includes(arch)
    ? path.join(path.dirname(file), base.replace(arch, ARCH_PLACEHOLDER))
    : '';
  const known = template === '' ? [] : (await readKnownArches(template)).filter((name) => name !== arch);
  if (known.length > 0)
    return new UsageError(
      `${archOrigin ?? `arch ${arch}`}: no ${what} for ${arch} (${file} does not exist); the arches with one are ${known.join(', ')}`,
      { hint: `pass --arch ${known[0]}, or save ${arch}'s ${what} as ${file}` },
    );
  return new UsageError(`the ${what} fleet.yaml names, ${file}, does not exist`, {
    hint: `correct it in fleet.yaml, or pass ${flag} FILE`,
  });
}

/** A file fleet.yaml or a flag names, or a UsageError naming the flag (or fleet.yaml) and the fix. */
export async function readNamedFile(named: NamedFile): Promise<string> {
  try {
    return await readFile(named.file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw await describeMissingFile(named);
    throw toFileAccessError(error, {
      path: named.file,
      flag: named.origin === undefined ? undefined : named.flag,
      doing: `read the ${named.what}`,
      reading: true,
    });
  }
}

// Files only: fleet.yaml (with env and flag overrides) and the target costs it names.
export async function loadPlanConfig({
  fleetPath,
  flags = {},
  env,
}: LoadPlanConfigOptions): Promise<PlanConfig> {
  const origins = nameInputOrigins(mergeOverrides(toEnvOverrides(env), flags), env);
  const overrides = mergeOverrides(toEnvOverrides(env), flags, { archFrom: origins.arch });
  const { config, warnings } = await loadConfig({ fleetPath, overrides });
  const costsText = await readNamedFile({
    file: config.costsPath,
    what: 'target costs',
    flag: '--costs',
    origin: origins.costs,
    arch: config.arch,
    archOrigin: origins.arch,
  });
  const parsed = parseTargetCosts(costsText, config.costsPath);
  if (parsed.errors.length > 0) throw new ConfigError(config.costsPath, parsed.errors);
  return { config, costs: parsed.costs, warnings, origins };
}
