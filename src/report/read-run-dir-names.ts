import { readdir } from 'node:fs/promises';
import { RocmPerfError } from '../shared/errors.js';
import { TRACE_FILE } from './run-files.js';

// What makes a directory a run: report, diff and export refuse anything else before they read or write it.

/** A run dir holds run.json (every harness writes it first) or at least one build trace (a run from elsewhere). */
function isRunDir(names: readonly string[]): boolean {
  return names.some((name) => name === 'run.json' || TRACE_FILE.test(name));
}

/** Refuses a directory that is not a run, before anything reads or writes it: an empty report is a wrong one. */
export async function readRunDirNames(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  if (isRunDir(names)) return names;
  const shown = names.filter((name) => !name.startsWith('.')).sort();
  const holds =
    shown.length === 0
      ? 'it is empty'
      : `it holds ${shown.length} file(s) (${shown.slice(0, 5).join(', ')}${shown.length > 5 ? ', …' : ''})`;
  throw new RocmPerfError(
    'ROCMPERF_NOT_A_RUN',
    `${dir}: not a run dir: no run.json and no trace-<target>.json; ${holds}. Nothing was read or written`,
    {
      hint: 'pass a run dir written by `rocm-perf cold|warm|bench` (or brought in by `rocm-perf import`), or its stamp under --root/PERF_ROOT',
    },
  );
}
