// A wall clock off by whole seconds for one process tree, through Debian's libfaketime (LD_PRELOAD). It shifts what
// C and Node programs read (nginx's log times, the Zot-log proxy's, `date` over ssh, the double's build records and
// trace spans); Go programs read the clock without libc, so node_exporter keeps the true time. The monotonic clock is
// left alone so timers, timeouts and performance.now() behave.
//
// libfaketime 0.9.10 (src/libfaketime.c: ft_shm_create, ft_shm_init, ft_shm_destroy) keeps a semaphore and a
// shared-memory block per process tree. They are named after the pid of the first preloaded process
// (`/faketime_sem_<pid>`, `/faketime_shm_<pid>`) and passed down in FAKETIME_SHARED. The creator removes them in its
// destructor, and so does every child it forked without exec (bash's pipeline subshells: upstream fixed this after
// 0.9.10, commit 0c76f27). A process exec'd after that finds FAKETIME_SHARED stale and makes a pair for its own pid.
// If a pair with that pid is left in /dev/shm by a killed daemon (pid_max is 32768 here, so pids come round in a
// test run), it cannot, and libfaketime exits 1 after three tries. CI saw exactly this: the log host's
// `printf x | split --filter=cat` failed, and preflight refused the run.
// So one keeper process (`startClockKeeper`) owns the pair for the fleet's lifetime. Every skewed process gets its
// names in FAKETIME_SHARED, so none creates or removes a pair. The pair goes when the fleet stops, or through the
// cleanup ledger when a later run finds this one killed.
// The risk left: every skewed process shares one semaphore (libfaketime takes it around stat()), so a process
// killed inside that window would stall the others; the window is a few instructions, and only teardown kills.
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
    for (const file of files) rmSync(file, { force: true });
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
