// Time arrives as a parameter so pure code and tests stay deterministic.
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

export function createFakeClock(startMs = 0): Clock & { advance(ms: number): void } {
  let now = startMs;
  return {
    nowMs: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}
