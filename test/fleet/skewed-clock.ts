// A wall clock off by whole seconds for one process tree, through Debian's libfaketime (LD_PRELOAD). It shifts what
// C and Node programs read (nginx's log times, the Zot-log proxy's, `date` over ssh, the double's build records and
// trace spans); Go programs read the clock without libc, so node_exporter keeps the true time. The monotonic clock is
// left alone so timers, timeouts and performance.now() behave.
//
// libfaketime 0.9.10 keeps a semaphore and a shared-memory block per process tree, named after the pid of the first
// preloaded process (`/faketime_sem_<pid>`, `/faketime_shm_<pid>`), passed down in FAKETIME_SHARED, and removed only
// when that process exits normally (libfaketime src/libfaketime.c, ft_shm_create/ft_shm_init/ft_shm_destroy). A
// killed daemon leaves its pair in /dev/shm; with pid_max 32768 a later process with the same pid finds it, and a
// child whose tree's first process already exited finds FAKETIME_SHARED stale; both can make libfaketime exit(1)
// in a process the test never meant to fail (CI once saw the log host's `split --filter=cat` fail so). So every
// skewed process shares one pair that a keeper process owns for the fleet's lifetime (`startClockKeeper`): nothing
// else ever creates one, and the pair is removed when the fleet stops, or by a later run if this one was killed.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { registerResource } from '../helpers/daemons/index.js';

const libfaketimePath = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';

function assertLibfaketime(): void {
  if (!existsSync(libfaketimePath))
    throw new Error(`${libfaketimePath} is missing: apt-get install libfaketime (test/debian-packages.txt)`);
}

/**
 * The environment that makes a process (and what it starts) see its wall clock `seconds` off; {} for 0. `shared` is
 * the keeper's FAKETIME_SHARED (startClockKeeper).
 */
export function toSkewedClockEnv(
  seconds: number | undefined,
  shared: string | undefined,
): Record<string, string> {
  if (seconds === undefined || seconds === 0) return {};
  if (!Number.isInteger(seconds)) throw new Error(`a skewed clock takes whole seconds, not ${seconds}`);
  assertLibfaketime();
  if (shared === undefined)
    throw new Error('a skewed clock needs the fleet’s clock keeper (startClockKeeper): its FAKETIME_SHARED');
  return {
    LD_PRELOAD: libfaketimePath,
    FAKETIME: `${seconds > 0 ? '+' : ''}${seconds}s`,
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
    FAKETIME_SHARED: shared,
  };
}

export interface ClockKeeper {
  /** FAKETIME_SHARED for every skewed process: `/faketime_sem_<pid> /faketime_shm_<pid>`. */
  shared: string;
  stop: () => void;
}

/** Starts the process that owns libfaketime's shared pair for a fleet (see the header). */
export async function startClockKeeper(): Promise<ClockKeeper> {
  assertLibfaketime();
  const child = spawn('sleep', ['infinity'], {
    stdio: 'ignore',
    env: { ...process.env, LD_PRELOAD: libfaketimePath, FAKETIME: '+0s', FAKETIME_DONT_FAKE_MONOTONIC: '1' },
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the clock keeper (sleep infinity under libfaketime) did not start');
  const files = [`/dev/shm/sem.faketime_sem_${pid}`, `/dev/shm/faketime_shm_${pid}`];
  const forget = [
    registerResource({ kind: 'pid', pid, command: 'sleep' }),
    ...files.map((file) => registerResource({ kind: 'dir', path: file })),
  ];
  const stop = () => {
    child.kill('SIGKILL');
    for (const file of files) rmSyncQuiet(file);
    for (const fn of forget) fn();
  };
  // libfaketime makes the pair in the keeper's constructor, before `sleep` runs: wait for both files.
  for (let waited = 0; !files.every((file) => existsSync(file)); waited += 10) {
    if (waited > 5000 || child.exitCode !== null) {
      stop();
      throw new Error(`the clock keeper (pid ${pid}) made no ${files.join(' / ')} within 5 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { shared: `/faketime_sem_${pid} /faketime_shm_${pid}`, stop };
}

function rmSyncQuiet(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // gone already
  }
}
