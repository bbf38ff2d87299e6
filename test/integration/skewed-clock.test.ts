import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { buildLogHostCheckCommand } from '../../src/run/cache-logs/remote-log-files.js';
import { startClockKeeper, toSkewedClockEnv } from '../fleet/skewed-clock.js';

// The box's skewed clocks (test/fleet/skewed-clock.ts) against the libfaketime 0.9.10 failure CI met: pairs leaked
// by killed processes at pids that come round again make a process whose FAKETIME_SHARED went stale exit 1. Here
// the leaks are made on purpose, at about half of the next pids, and the log host's preflight command (its
// `printf x | split --filter=cat`) runs under bash as sshd would run it. Without the keeper it fails; with it, never.

const leaked: string[] = [];
const shmBefore = new Set(readdirSync('/dev/shm'));
afterEach(() => {
  for (const file of leaked.splice(0)) rmSync(file, { force: true });
  // The pairs the runs without a keeper made and left (their makers exited 1): every new one whose pid is gone.
  for (const name of readdirSync('/dev/shm')) {
    const pid = /faketime_(?:sem|shm)_(\d+)$/.exec(name)?.[1];
    if (pid !== undefined && !shmBefore.has(name) && !existsSync(`/proc/${pid}`))
      rmSync(`/dev/shm/${name}`, { force: true });
  }
});

/** libfaketime's environment as the box had it before the keeper: every process tree makes its own pair. */
function toBareSkewedEnv(): Record<string, string> {
  const { FAKETIME_SHARED: _shared, ...env } = toSkewedClockEnv(-5, 'unused');
  return env;
}

/** Leaves a pair like a killed process's at about half of the next `span` pids (they wrap at pid_max). */
async function leakPairsAhead(span: number): Promise<void> {
  const victim = spawn('sleep', ['30'], { env: { ...process.env, ...toBareSkewedEnv() } });
  const pid = victim.pid!;
  const files = [`/dev/shm/sem.faketime_sem_${pid}`, `/dev/shm/faketime_shm_${pid}`];
  while (!files.every((file) => existsSync(file))) await new Promise((resolve) => setTimeout(resolve, 10));
  victim.kill('SIGKILL');
  await new Promise((resolve) => victim.once('exit', resolve));
  leaked.push(...files);
  const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
  for (let step = 1; step <= span; step++) {
    if (Math.random() < 0.5) continue;
    const next = ((pid + step - 300) % (pidMax - 300)) + 300;
    const pair = [`/dev/shm/sem.faketime_sem_${next}`, `/dev/shm/faketime_shm_${next}`];
    if (pair.some((file) => existsSync(file))) continue;
    copyFileSync(files[0]!, pair[0]!);
    copyFileSync(files[1]!, pair[1]!);
    leaked.push(...pair);
  }
}

function runCheckCommand(env: Record<string, string>, times: number): string[] {
  const failures: string[] = [];
  for (let i = 0; i < times; i++) {
    const result = spawnSync('bash', ['-c', buildLogHostCheckCommand('/etc/hostname')], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    if (result.status !== 0) failures.push(result.stderr.trim());
  }
  return failures;
}

describe('skewed clocks in the box', () => {
  it('without a keeper, libfaketime’s leaked pairs fail the log host check; with one, it always passes', async () => {
    await leakPairsAhead(8000);
    const bare = runCheckCommand(toBareSkewedEnv(), 60);
    console.log(`without a keeper: ${bare.length} of 60 failed; first: ${bare[0]}`);
    expect(bare.length).toBeGreaterThan(0);
    // Whichever process of the check met a leaked pair (split, its filter, wc) names libfaketime as the cause.
    for (const failure of bare) expect(failure).toMatch(/libfaketime: In ft_shm_init\(\), sem_open failed/);

    const keeper = await startClockKeeper();
    try {
      const kept = runCheckCommand(toSkewedClockEnv(-5, keeper.shared), 60);
      expect(kept).toEqual([]);
      // Still skewed: bash's `date` under the keeper's env reads 5 s behind.
      const skewedNow = Number(
        spawnSync('date', ['+%s'], {
          encoding: 'utf8',
          env: { ...process.env, ...toSkewedClockEnv(-5, keeper.shared) },
        }).stdout,
      );
      expect(Math.round(Date.now() / 1000 - skewedNow)).toBeGreaterThanOrEqual(4);
    } finally {
      keeper.stop();
    }
    const pid = keeper.shared.match(/faketime_sem_(\d+)/)![1];
    expect(readdirSync('/dev/shm').filter((name) => name.endsWith(`_${pid}`))).toEqual([]);
  });
});
