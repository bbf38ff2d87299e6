import { ArtifactError, isRocmPerfError } from '../shared/errors.js';
import { errorMessage } from '../shared/error-message.js';
import type { RunDir } from './open-run-dir.js';

// The file access under every run-dir reader, through the run dir's handle (open-run-dir.ts: confined, each file
// read once): a missing file is undefined, a link or special file is refused, anything else that fails is an
// ArtifactError naming the file.

/** The file's text; undefined when it does not exist. */
export async function readTextIfPresent(runDir: RunDir, name: string): Promise<string | undefined> {
  try {
    return await runDir.readText(name);
  } catch (error) {
    if (isRocmPerfError(error)) throw error;
    throw new ArtifactError(runDir.file(name), `cannot read: ${errorMessage(error)}`, {
      cause: error,
      hint: 'the run dir holds something other than a readable file under this name: restore the file from the run host or a copy, or remove it',
    });
  }
}

/** The file's JSON; undefined when it does not exist. */
export async function readJsonIfPresent(runDir: RunDir, name: string): Promise<unknown> {
  const text = await readTextIfPresent(runDir, name);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ArtifactError(runDir.file(name), `not JSON: ${errorMessage(error)}`, {
      cause: error,
      hint: 'the file is truncated or was written by something else',
    });
  }
}
