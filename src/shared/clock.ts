// Time arrives as a parameter so pure code and tests stay deterministic.
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };
