// artifacts.txt in and out: what a run published — wheel files in a wheelhouse directory, or image tags in the
// registry. The format itself is src/artifacts/artifacts-file.ts.
import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from '../shared/request.js';
import { z } from 'zod';
import { HttpError } from '../shared/errors.js';
import { type Artifact, parseArtifacts, renderArtifacts } from '../artifacts/index.js';
import { readRunFileText } from '../artifacts/open-run-file.js';

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

/** Writes artifacts.txt; returns the text written (a run's digest of it). */
export async function writeArtifacts(options: {
  path: string;
  artifacts: readonly Artifact[];
}): Promise<string> {
  const text = renderArtifacts(options.artifacts);
  await writeFile(options.path, text);
  return text;
}

export async function readArtifacts(filePath: string): Promise<Artifact[]> {
  return parseArtifacts(await readRunFileText(filePath), filePath);
}
