// A small seeded generator (mulberry32): plans, benchmarks, fixtures and fuzz cases are reproducible run to run.

export interface Random {
  /** Uniform in [0, 1). */
  next: () => number;
  /** Uniform integer in [0, bound). */
  int: (bound: number) => number;
  /** `out.length` further uniforms of the same stream into `out` (as many `next()` calls, without one per value). */
  fill: (out: Float64Array) => void;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const fill = (out: Float64Array) => {
    let s = state;
    for (let k = 0; k < out.length; k++) {
      s = (s + 0x6d2b79f5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      out[k] = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }
    state = s;
  };
  return { next, int: (bound) => Math.floor(next() * bound), fill };
}
