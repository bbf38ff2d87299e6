import { ArtifactError, isRocmPerfError } from '../shared/errors.js';
import { errorMessage } from '../shared/error-message.js';
import { readRunFileText } from '../artifacts/open-run-file.js';

// The file access under every artifact reader, confined (open-run-file.ts): a missing file is undefined, a link or
// special file is refused, anything else that fails is an ArtifactError naming the file. Not in index.ts: the schemas stay importable without node:fs (the page bundle).

/** The file's text; undefined when it does not exist. */
export async function readTextIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readRunFileText(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (isRocmPerfError(error)) throw error;
    throw new ArtifactError(file, `cannot read: ${errorMessage(error)}`, {
      cause: error,
      hint: 'the run dir holds something other than a readable file under this name: restore the file from the run host or a copy, or remove it',
    });
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
