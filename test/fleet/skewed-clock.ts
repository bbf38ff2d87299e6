// A wall clock off by whole seconds for one process tree, through Debian's libfaketime (LD_PRELOAD). It shifts what
// C and Node programs read (nginx's log times, the Zot-log proxy's, `date` over ssh, the double's build records and
// trace spans); Go programs read the clock without libc, so node_exporter keeps the true time. The monotonic clock is
// left alone so timers, timeouts and performance.now() behave.
import { existsSync } from 'node:fs';

const libfaketimePath = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';

/** The environment that makes a process (and what it starts) see its wall clock `seconds` off; {} for 0. */
export function toSkewedClockEnv(seconds: number | undefined): Record<string, string> {
  if (seconds === undefined || seconds === 0) return {};
  if (!Number.isInteger(seconds)) throw new Error(`a skewed clock takes whole seconds, not ${seconds}`);
  if (!existsSync(libfaketimePath))
    throw new Error(`${libfaketimePath} is missing: apt-get install libfaketime (test/debian-packages.txt)`);
  return {
    LD_PRELOAD: libfaketimePath,
    FAKETIME: `${seconds > 0 ? '+' : ''}${seconds}s`,
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  };
}
