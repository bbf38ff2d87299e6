import { DataFileSchema, RUN_DIR_FILES, type DataFile } from '../artifacts/index.js';
import { errorMessage } from '../shared/error-message.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';
import type { RunDir } from './open-run-dir.js';
import { readTextIfPresent } from './read-json-file.js';

// The one reader of data.json (report/write-report.ts writes it): through DataFileSchema, once per handle. What a
// bad file means is the caller's: diff, export and trends rebuild the model from the run files and say why
// (report/load-run-model.ts); publish refuses to index a published run it cannot read.

export type DataFileRead =
  | { state: 'absent' }
  | { state: 'read'; model: DataFile }
  /** `why` continues the file's path: `is not JSON (…)`, `does not match … schema (…)`. */
  | { state: 'bad'; file: string; why: string };

export function readDataFile(runDir: RunDir): Promise<DataFileRead> {
  return runDir.remember(RUN_DIR_FILES.data, async (): Promise<DataFileRead> => {
    const file = runDir.file(RUN_DIR_FILES.data);
    const text = await readTextIfPresent(runDir, RUN_DIR_FILES.data);
    if (text === undefined) return { state: 'absent' };
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return { state: 'bad', file, why: `is not JSON (${errorMessage(error)})` };
    }
    const parsed = DataFileSchema.safeParse(raw);
    if (parsed.success) return { state: 'read', model: parsed.data };
    const first = formatZodIssues(parsed.error.issues, { limit: 1 }) || 'invalid';
    return { state: 'bad', file, why: `does not match this rocm-perf's data.json schema (${first})` };
  });
}
