// The dispatch comparison of `npm run bench:plan`: fixed queues vs plan-guided dispatch (greedy as a reference)
// under noisy durations the policies do not know (lognormal σ = 0.3, seeded). For each heft-ls plan, every draw
// runs all three policies on the same durations. Makespans are reported as ratios to that draw's own lower bound
// (the bound of the realised durations: what a clairvoyant scheduler could at best reach) and as guided ÷ fixed.
import { createDispatchGuide } from '../src/plan/dispatch-guide.js';
import { findLowerBound } from '../src/plan/lower-bound.js';
import { simulateDispatch, type DispatchPolicy } from '../src/plan/simulate-dispatch.js';
import { type CostInput } from '../src/plan/problem.js';
import { type PlanNode } from '../src/plan/cost-model.js';
import type { Plan } from '../src/artifacts/index.js';
import { toNoisyDurations } from '../src/plan/simulate-plan.js';

export interface DispatchCase {
  plan: Plan;
  costs: ReadonlyMap<string, CostInput>;
  nodes: readonly PlanNode[];
}

export interface DispatchComparison {
  draws: number;
  cases: number;
  /** policy → makespan ÷ the draw's lower bound, one per (case, draw). */
  ratioToBound: Record<DispatchPolicy, number[]>;
  /** policy → makespan ÷ fixed's makespan on the same durations. */
  ratioToFixed: Record<DispatchPolicy, number[]>;
  /** Share of draws where guided finished strictly earlier / later than fixed. */
  guidedBetter: number;
  guidedWorse: number;
}

export const DISPATCH_POLICIES: readonly DispatchPolicy[] = ['fixed', 'guided', 'greedy'];
export const DISPATCH_SIGMA = 0.3;

export function compareDispatch(
  cases: readonly DispatchCase[],
  { draws, seed }: { draws: number; seed: number },
): DispatchComparison {
  const ratioToBound = { fixed: [] as number[], guided: [] as number[], greedy: [] as number[] };
  const ratioToFixed = { fixed: [] as number[], guided: [] as number[], greedy: [] as number[] };
  let better = 0;
  let worse = 0;
  cases.forEach((item, k) => {
    const guide = createDispatchGuide(item.plan, item.costs);
    for (let d = 0; d < draws; d++) {
      const durationNoise = { sigma: DISPATCH_SIGMA, seed: seed + k * 10_007 + d };
      const bound = findLowerBound({
        ...guide.problem,
        cost: toNoisyDurations(guide.problem, durationNoise),
      }).lowerBoundSeconds;
      const makespan = Object.fromEntries(
        DISPATCH_POLICIES.map((policy) => [
          policy,
          simulateDispatch({ policy, plan: item.plan, costs: item.costs, guide, durationNoise })
            .makespanSeconds,
        ]),
      ) as Record<DispatchPolicy, number>;
      for (const policy of DISPATCH_POLICIES) {
        ratioToBound[policy].push(makespan[policy] / bound);
        ratioToFixed[policy].push(makespan[policy] / makespan.fixed);
      }
      if (makespan.guided < makespan.fixed * (1 - 1e-9)) better++;
      if (makespan.guided > makespan.fixed * (1 + 1e-9)) worse++;
    }
  });
  const total = cases.length * draws;
  return {
    draws,
    cases: cases.length,
    ratioToBound,
    ratioToFixed,
    guidedBetter: better / total,
    guidedWorse: worse / total,
  };
}

export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

export function summarize(values: readonly number[]): {
  median: number;
  p90: number;
  mean: number;
  max: number;
} {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
  return { median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), mean, max: sorted.at(-1) ?? NaN };
}

export function printDispatch(title: string, result: DispatchComparison): void {
  console.log(
    `\n${title}: ${result.cases} plan(s) × ${result.draws} draws, durations × exp(${DISPATCH_SIGMA}·N(0,1)) per target, unknown to the policies`,
  );
  console.log('policy    ÷ draw LB: median  p90      | ÷ fixed: median  p90      mean     max');
  for (const policy of DISPATCH_POLICIES) {
    const bound = summarize(result.ratioToBound[policy]);
    const fixed = summarize(result.ratioToFixed[policy]);
    const cells = [bound.median, bound.p90].map((value) => value.toFixed(4).padEnd(9)).join('');
    const relative = [fixed.median, fixed.p90, fixed.mean, fixed.max]
      .map((value) => value.toFixed(4).padEnd(9))
      .join('');
    console.log(`${policy.padEnd(10)}          ${cells}|          ${relative}`);
  }
  console.log(
    `guided vs fixed on the same durations: shorter in ${(result.guidedBetter * 100).toFixed(1)}% of draws, longer in ${(result.guidedWorse * 100).toFixed(1)}%`,
  );
}
