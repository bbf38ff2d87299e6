// artifacts.txt: what a run published. A `# rocm-perf artifacts version 1` header, then one tab-separated line per
// artifact: `wheel\t<file name>\t<size bytes>` or `image\t<repository>:<tag>`, read back through a zod schema.
import { z } from 'zod';
import { ArtifactError } from '../shared/errors.js';

export const ARTIFACTS_VERSION = 1;
const header = `# rocm-perf artifacts version ${ARTIFACTS_VERSION}`;

export const ArtifactSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('wheel'),
    name: z.string().regex(/^[^\t\n/]+\.whl$/),
    sizeBytes: z.number().int().nonnegative(),
  }),
  z.strictObject({ kind: z.literal('image'), name: z.string().regex(/^[^\t\n:@]+:[^\t\n]+$/) }),
]);
export type Artifact = z.infer<typeof ArtifactSchema>;

export function renderArtifacts(artifacts: readonly Artifact[]): string {
  const lines = artifacts.map((artifact) =>
    artifact.kind === 'wheel' ? `wheel\t${artifact.name}\t${artifact.sizeBytes}` : `image\t${artifact.name}`,
  );
  return `${[header, ...lines].join('\n')}\n`;
}

export function parseArtifacts(text: string, source = 'artifacts.txt'): Artifact[] {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines[0] !== header)
    throw new ArtifactError(
      source,
      `expected the header \`${header}\`, got ${JSON.stringify(lines[0] ?? '')}; re-run the collection that writes it`,
    );
  return lines.slice(1).map((line, index) => {
    const [kind, name, size] = line.split('\t');
    const parsed = ArtifactSchema.safeParse(
      kind === 'wheel' ? { kind, name, sizeBytes: Number(size) } : { kind, name },
    );
    if (!parsed.success)
      throw new ArtifactError(
        source,
        `line ${index + 2}: not an artifact line: ${JSON.stringify(line)} (expected \`wheel<TAB>name.whl<TAB>bytes\` or \`image<TAB>repo:tag\`)`,
      );
    return parsed.data;
  });
}
