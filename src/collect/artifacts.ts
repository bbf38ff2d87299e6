// artifacts.txt: what a run published — wheel files in a wheelhouse directory, or image tags in the registry.
// Format (versioned, read back through a zod schema): a `# rocm-perf artifacts version 1` header, then one
// tab-separated line per artifact: `wheel\t<file name>\t<size bytes>` or `image\t<repository>:<tag>`.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { z } from 'zod';
import { ArtifactError, HttpError } from '../shared/errors.js';

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

export type ListArtifactsOptions =
  | { wheelhouseDir: string }
  | { registryUrl: string; repositories: readonly string[]; headers?: Record<string, string> };

async function listWheels(dir: string): Promise<Artifact[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.whl')).sort();
  return Promise.all(
    names.map(async (name) => ({
      kind: 'wheel' as const,
      name,
      sizeBytes: (await stat(path.join(dir, name))).size,
    })),
  );
}

async function listTags(
  registryUrl: string,
  repository: string,
  headers: Record<string, string> = {},
): Promise<Artifact[]> {
  const url = `${registryUrl.replace(/\/+$/, '')}/v2/${repository}/tags/list`;
  const response = await request(url, { headers });
  const body = await response.body.text();
  if (response.statusCode === 404) return [];
  if (response.statusCode !== 200)
    throw new HttpError(url, response.statusCode, `tags/list answered ${response.statusCode}`);
  const parsed = z.object({ tags: z.array(z.string()).nullable().optional() }).safeParse(JSON.parse(body));
  if (!parsed.success) throw new HttpError(url, response.statusCode, 'tags/list answer has no `tags` array');
  return (parsed.data.tags ?? [])
    .sort()
    .map((tag) => ({ kind: 'image' as const, name: `${repository}:${tag}` }));
}

/** Wheels in a wheelhouse dir (sorted), or `<repository>:<tag>` for every tag of the given repositories. */
export async function listArtifacts(options: ListArtifactsOptions): Promise<Artifact[]> {
  if ('wheelhouseDir' in options) return listWheels(options.wheelhouseDir);
  const lists = await Promise.all(
    options.repositories.map((repository) => listTags(options.registryUrl, repository, options.headers)),
  );
  return lists.flat();
}

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

export async function writeArtifacts(options: {
  path: string;
  artifacts: readonly Artifact[];
}): Promise<void> {
  await writeFile(options.path, renderArtifacts(options.artifacts));
}

export async function readArtifacts(filePath: string): Promise<Artifact[]> {
  return parseArtifacts(await readFile(filePath, 'utf8'), filePath);
}
