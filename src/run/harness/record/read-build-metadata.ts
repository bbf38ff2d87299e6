import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Artifact } from '../../../artifacts/index.js';
import { parseImageRef } from '../../registry/index.js';

// The bake --metadata-file (written only when the whole bake succeeded): target → exporter response.

const TargetMetadataSchema = z.looseObject({
  'buildx.build.ref': z.string().optional(),
  'image.name': z.string().optional(),
  'containerimage.digest': z.string().optional(),
});
const BuildMetadataSchema = z.record(z.string(), z.unknown());
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

/** Pure: the images a target published (`image.name`, comma-joined), as artifacts.txt entries `<repository>:<tag>`. */
export function toImageArtifacts(metadata: TargetMetadata): Artifact[] {
  const names = (metadata['image.name'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names
    .map((name) => parseImageRef(name))
    .map((ref) => ({ kind: 'image' as const, name: `${ref.repository}:${ref.reference}` }));
}
