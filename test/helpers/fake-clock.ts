import type { Clock } from '../../src/shared/clock.js';

// A clock tests move by hand (src/ keeps only the system clock).
export function createFakeClock(startMs = 0): Clock & { advance(ms: number): void } {
  let now = startMs;
  return {
    nowMs: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}
