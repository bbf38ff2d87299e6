// The spec: "On a fleet whose nodes share one uplink speed the term cancels and placement collapses to plain LPT."
// Property: with one link speed, one node speed and no dependencies, every list schedule of the default strategy's
// list phase places each target where plain LPT does, at the same start.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createListCandidates, placeTargets } from '../../../src/plan/place-targets.js';
import { createProblem, type CostInput } from '../../../src/plan/problem.js';
import { evaluateOrder, createTiming } from '../../../src/plan/evaluate-order.js';
import type { PlanProblem } from '../../../src/plan/problem.js';
import type { Placement } from '../../../src/plan/list-schedule.js';

const instance = fc.record({
  targets: fc.array(
    fc.record({
      buildSeconds: fc.integer({ min: 0, max: 5400 }),
      cacheBytes: fc.integer({ min: 0, max: 12_400_000_000 }),
    }),
    { minLength: 1, maxLength: 30 },
  ),
  nodes: fc.integer({ min: 1, max: 8 }),
  linkMbps: fc.double({ min: 4, max: 900, noNaN: true }),
  speed: fc.double({ min: 0.6, max: 1.3, noNaN: true }),
});

/** target → [node, start] of a placement, timed by the planner's own evaluation. */
function toSchedule(problem: PlanProblem, placement: Placement): Map<number, [number, number]> {
  const timing = createTiming(problem.n);
  evaluateOrder(problem, { ...placement, timing });
  return new Map(placement.order.map((j) => [j, [placement.assign[j]!, timing.start[j]!]]));
}

describe('equal links collapse to LPT', () => {
  it('the default strategy’s list phase equals plain LPT on 300 random equal-link instances without dependencies', () => {
    fc.assert(
      fc.property(instance, ({ targets, nodes, linkMbps, speed }) => {
        const names = targets.map((_, j) => `t${String(j).padStart(2, '0')}`);
        const costs = new Map<string, CostInput>(names.map((name, j) => [name, targets[j]!]));
        const problem = createProblem({
          graph: { targets: names, deps: Object.fromEntries(names.map((name) => [name, []])) },
          costs,
          nodes: Array.from({ length: nodes }, (_, i) => ({
            name: `n${i}`,
            builder: `b${i}`,
            linkMbps,
            speed,
          })),
        });
        const lpt = toSchedule(problem, placeTargets(problem, { strategy: 'lpt' }).placement);
        for (const candidate of createListCandidates(problem))
          expect(toSchedule(problem, candidate)).toEqual(lpt);
      }),
      { numRuns: 300, seed: 17 },
    );
  });
});
