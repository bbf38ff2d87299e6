import path from 'node:path';
import { ArtifactError } from '../shared/errors.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';
import { readJsonIfPresent } from './read-json-file.js';
import { REGISTRY_SIZES_FILE, RegistrySizesFileSchema } from '../artifacts/registry-sizes-file.js';

// The one reader of registry-sizes.json (run/cache-logs/write-registry-sizes.ts writes it). Not in index.ts (node:fs).

/** The sizes a run dir's registry-sizes.json holds; undefined when it has none (a Zot log, an older run). */
export async function readRegistrySizes(dir: string): Promise<Record<string, number> | undefined> {
  const file = path.join(dir, REGISTRY_SIZES_FILE);
  const raw = await readJsonIfPresent(file);
  if (raw === undefined) return undefined;
  const parsed = RegistrySizesFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data.sizes;
  throw new ArtifactError(file, `not a valid registry sizes file: ${formatZodIssues(parsed.error.issues)}`, {
    hint: `${REGISTRY_SIZES_FILE} is written by \`rocm-perf cold|warm|bench\` when it slices a Distribution log; remove it to report without those sizes`,
  });
}
