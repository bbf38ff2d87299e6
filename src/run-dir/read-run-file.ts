import path from 'node:path';
import { ArtifactError } from '../shared/errors.js';
import { errorMessage } from '../shared/error-message.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';
import { readJsonIfPresent } from './read-json-file.js';
import { readRunFileText, RunFileRefusedError } from '../artifacts/open-run-file.js';
import { RunFileSchema, type RunFile } from '../artifacts/run-file.js';

// The one reader of run.json (written by the harness's run-file writer): through RunFileSchema, in the two ways
// callers need it. Not in index.ts (node:fs).

export const RUN_FILE_NAME = 'run.json';

function parseRunFile(raw: unknown, file: string, hint: string): RunFile {
  const parsed = RunFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new ArtifactError(file, `not a valid run file: ${formatZodIssues(parsed.error.issues)}`, { hint });
}

/** A run dir's run.json; undefined when it has none (report, serve, trends, import: a run dir may lack it). */
export async function readRunFile(dir: string): Promise<RunFile | undefined> {
  const file = path.join(dir, RUN_FILE_NAME);
  const raw = await readJsonIfPresent(file);
  if (raw === undefined) return undefined;
  return parseRunFile(
    raw,
    file,
    'run.json is written by `rocm-perf cold|warm|bench`; a file from another version needs the matching rocm-perf',
  );
}

/** A finished run's run.json, which must be there (`costs --from`, `plan --from-run`). */
export async function readRequiredRunFile(dir: string): Promise<RunFile> {
  const file = path.join(dir, RUN_FILE_NAME);
  let raw: unknown;
  try {
    raw = JSON.parse(await readRunFileText(file));
  } catch (cause) {
    if (cause instanceof RunFileRefusedError) throw cause;
    throw new ArtifactError(file, `cannot read run.json: ${errorMessage(cause)}`, {
      cause,
      hint: 'pass a run dir written by `rocm-perf cold|warm|bench`',
    });
  }
  return parseRunFile(raw, file, 'a run.json from another rocm-perf version needs that version');
}
