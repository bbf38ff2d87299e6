import { ExitCode, isRocmPerfError } from './errors.js';
import { isEnvironmentError, toFileAccessError } from './to-file-access-error.js';

// What the top-level catch (cli.ts) prints for an error, and the exit code. A known error is `error:` plus `hint:`;
// a full disk or a permission met where no command named the path is the machine's fault, worded the same way;
// anything else is a bug: its stack and a request to report it.

export interface CliErrorReport {
  lines: string[];
  exitCode: number;
}

/** @internal */
export const BUG_LINE = 'this is a bug in rocm-perf: please report it with the --debug output';

export function formatCliError(error: unknown, { debug }: { debug: boolean }): CliErrorReport {
  const known = isEnvironmentError(error)
    ? toFileAccessError(error, { path: error.path ?? 'a file', doing: error.syscall ?? 'use it' })
    : error;
  if (isRocmPerfError(known)) {
    const lines = [`error: ${known.message}`];
    if (known.hint) lines.push(`hint: ${known.hint}`);
    if (debug && known.stack) lines.push(known.stack);
    return { lines, exitCode: known.exitCode };
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { lines: [text, BUG_LINE], exitCode: ExitCode.fatal };
}
