import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, UsageError } from '../shared/errors.js';
import { toFileAccessError } from '../shared/to-file-access-error.js';
import { parseYamlWithLines } from './parse-fleet-yaml.js';
import { validateConfig, type ConfigOverrides } from './resolve-config.js';
import type { Config } from './schema.js';

export interface LoadConfigOptions {
  fleetPath: string;
  overrides?: ConfigOverrides;
}

export interface LoadedConfig {
  config: Config;
  warnings: string[];
}

// I/O shell: read fleet.yaml, then validate (pure). Throws ConfigError listing every problem.
export async function loadConfig({ fleetPath, overrides }: LoadConfigOptions): Promise<LoadedConfig> {
  const source = path.resolve(fleetPath);
  const text = await readFile(source, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT')
      throw toFileAccessError(error, {
        path: fleetPath,
        flag: '--fleet',
        doing: 'read the fleet manifest',
        reading: true,
      });
    throw new UsageError(`--fleet ${fleetPath}: no such file (looked at ${source})`, {
      cause: error,
      hint: 'run from the directory that holds fleet.yaml, or pass --fleet FILE (or PERF_FLEET)',
    });
  });
  const parsed = parseYamlWithLines(text, source);
  if (parsed.errors.length > 0) throw new ConfigError(source, parsed.errors);
  const result = validateConfig({ raw: parsed.value, source, lineOf: parsed.lineOf, overrides });
  if (!result.config) throw new ConfigError(source, result.errors);
  return { config: result.config, warnings: result.warnings };
}
