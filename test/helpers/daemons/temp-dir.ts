import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { registerResource } from './cleanup-registry.js';

export interface TempDir {
  path: string;
  remove: () => void;
}

/** A fresh temp dir, removed by `remove()` or, failing that, by the exit hooks. */
export function createTempDir(prefix: string): TempDir {
  const dir = mkdtempSync(path.join(tmpdir(), `rocm-perf-${prefix}-`));
  const unregister = registerResource({ kind: 'dir', path: dir });
  return {
    path: dir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      unregister();
    },
  };
}
