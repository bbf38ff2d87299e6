import { RUN_DIR_FILES, RegistrySizesFileSchema } from '../artifacts/index.js';
import type { RunDir } from './open-run-dir.js';
import { ArtifactError } from '../shared/errors.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';
import { readJsonIfPresent } from './read-json-file.js';

// The one reader of registry-sizes.json (run/cache-logs/write-registry-sizes.ts writes it). Not in index.ts (node:fs).

/** The sizes a run dir's registry-sizes.json holds; undefined when it has none (a Zot log, an older run). */
export async function readRegistrySizes(runDir: RunDir): Promise<Record<string, number> | undefined> {
  const file = runDir.file(RUN_DIR_FILES.registrySizes);
  const raw = await readJsonIfPresent(runDir, RUN_DIR_FILES.registrySizes);
  if (raw === undefined) return undefined;
  const parsed = RegistrySizesFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data.sizes;
  throw new ArtifactError(file, `not a valid registry sizes file: ${formatZodIssues(parsed.error.issues)}`, {
    hint: `${RUN_DIR_FILES.registrySizes} is written by \`rocm-perf cold|warm|bench\` when it slices a Distribution log; remove it to report without those sizes`,
  });
}
