import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireRunLock } from '../../../../../src/run/harness/context/run-lock.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rocm-perf-lock-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('acquireRunLock', () => {
  it('refuses a second run into a live namespace, allows another namespace, and frees on release', async () => {
    const first = await acquireRunLock({ root, namespace: 'rocm-coldrun', stamp: 's1', nowMs: 1 });
    await expect(acquireRunLock({ root, namespace: 'rocm-coldrun', stamp: 's2', nowMs: 2 })).rejects.toThrow(
      `a run into namespace rocm-coldrun is live: run s1, pid ${process.pid} on ${hostname()}`,
    );
    const other = await acquireRunLock({ root, namespace: 'rocm-coldrun-2', stamp: 's3', nowMs: 3 });
    await first.release();
    const again = await acquireRunLock({ root, namespace: 'rocm-coldrun', stamp: 's4', nowMs: 4 });
    await Promise.all([other.release(), again.release()]);
  });

  it('takes over a stale lock whose pid is gone, and an unreadable one', async () => {
    mkdirSync(path.join(root, '.locks'));
    const file = path.join(root, '.locks', 'rocm.lock');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        pid: 999_999_999,
        host: hostname(),
        namespace: 'rocm',
        stamp: 'dead',
        startedAtMs: 0,
      }),
    );
    const lock = await acquireRunLock({
      root,
      namespace: 'rocm',
      stamp: 'new',
      nowMs: 1,
      isPidAlive: () => false,
    });
    expect(lock.path).toBe(file);
    await lock.release();
    writeFileSync(file, 'not json');
    const taken = await acquireRunLock({ root, namespace: 'rocm', stamp: 'new2', nowMs: 1 });
    await taken.release();
  });
});
