import { readFile } from 'node:fs/promises';
import { z } from 'zod';

// The bake --metadata-file (written only when the whole bake succeeded): target → exporter response.

const TargetMetadataSchema = z.looseObject({
  'buildx.build.ref': z.string().optional(),
  'image.name': z.string().optional(),
  'containerimage.digest': z.string().optional(),
});
export const BuildMetadataSchema = z.record(z.string(), z.unknown());
export type TargetMetadata = z.infer<typeof TargetMetadataSchema>;

/** The target's entry, or undefined when the file is missing or has none. Other keys are ignored. */
export async function readBuildMetadata(file: string, target: string): Promise<TargetMetadata | undefined> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  const all = BuildMetadataSchema.safeParse(raw);
  if (!all.success) return undefined;
  const entry = TargetMetadataSchema.safeParse(all.data[target]);
  return entry.success ? entry.data : undefined;
}

/** Pure: artifacts.txt lines for a target: each pushed name, pinned to its digest when known. */
export function toArtifactLines(metadata: TargetMetadata): string[] {
  const names = (metadata['image.name'] ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const digest = metadata['containerimage.digest'];
  return names.map((name) => (digest ? `${name}@${digest}` : name));
}
