import { readFile, stat } from 'node:fs/promises';
import { ArtifactError } from '../shared/errors.js';
import { errorMessage } from '../shared/error-message.js';

// The file access under every artifact reader: a missing file is undefined, anything else that fails is an
// ArtifactError naming the file. Not in index.ts: the schemas stay importable without node:fs (the page bundle).

/** The file's text; undefined when it does not exist. */
export async function readTextIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ArtifactError(file, `cannot read: ${errorMessage(error)}`, { cause: error });
  }
}

/** The file's JSON; undefined when it does not exist. */
export async function readJsonIfPresent(file: string): Promise<unknown> {
  const text = await readTextIfPresent(file);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ArtifactError(file, `not JSON: ${errorMessage(error)}`, {
      cause: error,
      hint: 'the file is truncated or was written by something else',
    });
  }
}

export async function isPresent(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
