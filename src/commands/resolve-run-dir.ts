import { stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../shared/errors.js';

// A run named by a flag (`--from`, `--from-run`): a run dir, or a stamp under --root.
export async function resolveRunDir({
  flag,
  run,
  root,
}: {
  flag: string;
  run: string;
  root: string;
}): Promise<string> {
  const candidates = [...new Set([path.resolve(run), path.resolve(root, run)])];
  for (const candidate of candidates) {
    if ((await stat(candidate).catch(() => undefined))?.isDirectory()) return candidate;
  }
  throw new UsageError(`${flag} ${run}: no such run dir (looked at ${candidates.join(' and ')})`, {
    hint: 'pass a run dir written by `rocm-perf cold|warm|bench`, or its stamp under --root/PERF_ROOT',
  });
}
