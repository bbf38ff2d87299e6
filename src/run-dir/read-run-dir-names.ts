import { readdir } from 'node:fs/promises';
import { RUN_DIR_FILES, STATUS_FILE, TRACE_FILE } from '../artifacts/index.js';
import { RocmPerfError } from '../shared/errors.js';

// What makes a directory a run (docs/trust.md): report, diff, export, serve, publish and import refuse anything
// else before they read or write it.

/** The files a run writes beside its traces; a trace with one of them is a run from elsewhere (e.g. CI). */
const BESIDE_A_TRACE = new Set<string>([
  RUN_DIR_FILES.samples,
  RUN_DIR_FILES.sccache,
  RUN_DIR_FILES.registry,
  RUN_DIR_FILES.artifacts,
  RUN_DIR_FILES.plan,
]);

/**
 * A run dir holds run.json (every harness writes it first), or lane.txt (`rocm-perf import` writes it), or a
 * build trace with another file a run writes beside it (samples.jsonl, status-<target>.jsonl, sccache.log,
 * zot.jsonl, artifacts.txt, plan.json): a run recorded elsewhere. A lone stray trace-<target>.json is not a run.
 */
export function isRunDir(names: readonly string[]): boolean {
  if (names.includes(RUN_DIR_FILES.run) || names.includes(RUN_DIR_FILES.lane)) return true;
  return (
    names.some((name) => TRACE_FILE.test(name)) &&
    names.some((name) => BESIDE_A_TRACE.has(name) || STATUS_FILE.test(name))
  );
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
    `${dir}: not a run dir: no run.json, no lane.txt, and no trace-<target>.json beside another file of a run; ${holds}. Nothing was read or written`,
    {
      hint: 'pass a run dir written by `rocm-perf cold|warm|bench` (or brought in by `rocm-perf import`), or its stamp under --root/PERF_ROOT',
    },
  );
}
