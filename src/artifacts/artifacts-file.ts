// artifacts.txt: what a run published. A `# rocm-perf artifacts version 1` header, then one tab-separated line per
// artifact: `wheel\t<file name>\t<size bytes>` or `image\t<repository>:<tag>`, read back through a zod schema.
import { z } from 'zod';
import { ArtifactError } from '../shared/errors.js';

const ARTIFACTS_VERSION = 1;
export const ARTIFACTS_HEADER = `# rocm-perf artifacts version ${ARTIFACTS_VERSION}`;

const ArtifactSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('wheel'),
    name: z.string().regex(/^[^\t\n/]+\.whl$/),
    sizeBytes: z.number().int().nonnegative(),
  }),
  z.strictObject({ kind: z.literal('image'), name: z.string().regex(/^[^\t\n:@]+:[^\t\n]+$/) }),
]);
export type Artifact = z.infer<typeof ArtifactSchema>;

/** A line of artifacts.txt that is not an artifact: 1-based line number and why. */
export interface RejectedArtifactLine {
  line: number;
  reason: string;
}

export function renderArtifacts(artifacts: readonly Artifact[]): string {
  const lines = artifacts.map((artifact) =>
    artifact.kind === 'wheel' ? `wheel\t${artifact.name}\t${artifact.sizeBytes}` : `image\t${artifact.name}`,
  );
  return `${[ARTIFACTS_HEADER, ...lines].join('\n')}\n`;
}

/** One artifact line → the artifact, or why it is not one (the line and the two shapes it may take). */
function parseArtifactLine(line: string): Artifact | string {
  const [kind, name, size] = line.split('\t');
  const parsed = ArtifactSchema.safeParse(
    kind === 'wheel' ? { kind, name, sizeBytes: Number(size) } : { kind, name },
  );
  if (parsed.success) return parsed.data;
  return `not an artifact line: ${JSON.stringify(line)} (expected \`wheel<TAB>name.whl<TAB>bytes\` or \`image<TAB>repo:tag\`)`;
}

/**
 * The artifacts of a versioned artifacts.txt, each bad line rejected on its own (a bad line costs only itself).
 * Blank lines and `#` comments after the header are skipped. A missing header is an error: the whole file is
 * then of another format.
 */
export function parseArtifactLines(
  text: string,
  source = 'artifacts.txt',
): { artifacts: Artifact[]; rejected: RejectedArtifactLine[] } {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  if (lines[first] !== ARTIFACTS_HEADER)
    throw new ArtifactError(
      source,
      `expected the header \`${ARTIFACTS_HEADER}\`, got ${JSON.stringify(lines[first] ?? '')}; re-run the collection that writes it`,
    );
  const artifacts: Artifact[] = [];
  const rejected: RejectedArtifactLine[] = [];
  lines.forEach((line, index) => {
    if (index <= first || line.trim() === '' || line.startsWith('#')) return;
    const parsed = parseArtifactLine(line);
    if (typeof parsed === 'string') rejected.push({ line: index + 1, reason: parsed });
    else artifacts.push(parsed);
  });
  return { artifacts, rejected };
}

/** Strict: the first bad line is an error naming it (for files this rocm-perf just wrote). @internal */
export function parseArtifacts(text: string, source = 'artifacts.txt'): Artifact[] {
  const { artifacts, rejected } = parseArtifactLines(text, source);
  const bad = rejected[0];
  if (bad) throw new ArtifactError(source, `line ${bad.line}: ${bad.reason}`);
  return artifacts;
}
