import { describe, expect, it } from 'vitest';
import type { TargetWhy } from '../../../src/artifacts/index.js';
import { priceMisses } from '../../../src/explain/price-misses.js';
import { makeRunSide } from '../diff/make-run-side.js';
import { RUN_A, SYNTHETIC_PAIRS } from '../diff/synthetic-pairs.js';

// The costs are checked against makespans worked out by hand from the timelines (synthetic-pairs.ts: A's makespan
// is 331 s, w finishing at 281 + 40 + 10 on n2), never against the replay's own figures.

const missed = (rebuiltAfter: string[] = []): TargetWhy => ({
  firstMiss: { vertex: 'sha256:1', name: '[2/3] RUN build' },
  cause: { kind: 'build-arg', name: 'ROCM_VERSION', old: '6.4', new: '6.5' },
  rebuiltAfter,
  costSeconds: null,
});

describe('priceMisses (diff’s counterfactual replay)', () => {
  it('y’s build +100 s on the critical path: its miss cost 100 s of makespan', () => {
    const b = SYNTHETIC_PAIRS[0]!.b;
    const prices = priceMisses({
      why: new Map([['y', missed()]]),
      compared: makeRunSide(RUN_A),
      current: makeRunSide(b),
    });
    expect(prices.costs.get('y')).toBe(100);
  });

  it('y and w (rebuilt after it, +30 s) both slower: y’s miss costs both, 130 s; alone 100 s', () => {
    // B: y 111 → 381 (250 + 20), w 381 → 461 (70 + 10): makespan 461; A's 331. Without y and w: 331 (→ 130).
    // Without y alone: y ends 281, w 281 → 361: makespan 361 (x ends 321) → 100.
    const spec = structuredClone(SYNTHETIC_PAIRS[0]!.b);
    const w = spec.targets.find((t) => t.target === 'w')!;
    Object.assign(w, { startS: 381, buildS: 70, uploadS: 10, finishS: 461 });
    const args = { compared: makeRunSide(RUN_A), current: makeRunSide(spec) };
    expect(priceMisses({ ...args, why: new Map([['y', missed(['w'])]]) }).costs.get('y')).toBe(130);
    expect(priceMisses({ ...args, why: new Map([['y', missed()]]) }).costs.get('y')).toBe(100);
  });

  it('a target off the critical path costs 0; one not in the compared run is not priced, with a note', () => {
    const b = SYNTHETIC_PAIRS[0]!.b;
    const prices = priceMisses({
      why: new Map([
        ['z', missed()],
        ['ghost', missed()],
      ]),
      compared: makeRunSide(RUN_A),
      current: makeRunSide(b),
    });
    expect(prices.costs.get('z')).toBe(0);
    expect(prices.costs.has('ghost')).toBe(false);
    expect(prices.notes.join()).toContain('ghost');
  });
});
