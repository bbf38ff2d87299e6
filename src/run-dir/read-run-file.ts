import { ArtifactError } from '../shared/errors.js';
import { errorMessage } from '../shared/error-message.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';
import { readJsonIfPresent } from './read-json-file.js';
import { RunFileRefusedError } from '../shared/open-run-file.js';
import { RunFileSchema, type RunFile, RUN_DIR_FILES } from '../artifacts/index.js';
import type { RunDir } from './open-run-dir.js';

// The one reader of run.json (written by the harness's run-file writer): through RunFileSchema, in the two ways
// callers need it, parsed once per run-dir handle.

const NAME = RUN_DIR_FILES.run;

function parseRunFile(raw: unknown, file: string, hint: string): RunFile {
  const parsed = RunFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new ArtifactError(file, `not a valid run file: ${formatZodIssues(parsed.error.issues)}`, { hint });
}

/** A run dir's run.json; undefined when it has none (report, serve, trends, import: a run dir may lack it). */
export function readRunFile(runDir: RunDir): Promise<RunFile | undefined> {
  return runDir.remember(NAME, async () => {
    const raw = await readJsonIfPresent(runDir, NAME);
    if (raw === undefined) return undefined;
    return parseRunFile(
      raw,
      runDir.file(NAME),
      'run.json is written by `rocm-perf cold|warm|bench`; a file from another version needs the matching rocm-perf',
    );
  });
}

/** A finished run's run.json, which must be there (`costs --from`, `plan --from-run`). */
export async function readRequiredRunFile(runDir: RunDir): Promise<RunFile> {
  const file = runDir.file(NAME);
  let raw: unknown;
  try {
    const text = await runDir.readText(NAME);
    if (text === undefined) throw new Error('no run.json in the run dir');
    raw = JSON.parse(text);
  } catch (cause) {
    if (cause instanceof RunFileRefusedError) throw cause;
    throw new ArtifactError(file, `cannot read run.json: ${errorMessage(cause)}`, {
      cause,
      hint: 'pass a run dir written by `rocm-perf cold|warm|bench`',
    });
  }
  return parseRunFile(raw, file, 'a run.json from another rocm-perf version needs that version');
}
