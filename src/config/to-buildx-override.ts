import path from 'node:path';
import type { BuildxSetting } from './schema.js';

// A module of its own, without zod, so the CLI's flag table (and `--help`) can resolve --buildx without loading the
// fleet.yaml schema.

/** A standalone buildx named by the environment or a flag: a path from the working directory. */
export function toBuildxOverride(value: string | undefined, setting: string): BuildxSetting | undefined {
  const trimmed = value?.trim();
  return trimmed ? { path: path.resolve(trimmed), setting } : undefined;
}
