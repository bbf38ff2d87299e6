import { appendFile } from 'node:fs/promises';
import { errorMessage } from '../shared/error-message.js';
import { isRocmPerfError } from '../shared/errors.js';
import { toFileAccessError } from '../shared/to-file-access-error.js';

// GitHub's job summary: the runner names a file in GITHUB_STEP_SUMMARY and renders whatever markdown the steps of
// the job append to it. Appended (another step's summary stays), never truncated. The run is already recorded when
// this runs, so a failure to write is a warning, never a lost run: returned as `warning:` and `hint:` lines.

/** Appends `markdown` to `file`; returns the lines to print when that failed, else []. */
export async function appendStepSummary(file: string, markdown: string): Promise<string[]> {
  try {
    await appendFile(file, markdown, { encoding: 'utf8', flag: 'a' });
    return [];
  } catch (error) {
    const known = toFileAccessError(error, {
      path: file,
      flag: 'GITHUB_STEP_SUMMARY',
      doing: 'append the run summary',
    });
    const hint = isRocmPerfError(known) ? known.hint : undefined;
    return [
      `warning: ${errorMessage(known)} (the run and its report are recorded; only the job summary is missing)`,
      `hint: ${hint ?? 'set GITHUB_STEP_SUMMARY to a file you can write, or unset it'}`,
    ];
  }
}
