import type { PlanProblem } from './problem.js';

// Priorities for list scheduling. All pure functions of the problem; ties are broken later by name.

export type Weighting = 'mean' | 'min';

/** Per-target weight: the mean (HEFT) or the cheapest (optimistic, PEFT-like) cost over nodes. */
export function toTargetWeights(
  problem: PlanProblem,
  weighting: Weighting,
  cost: Float64Array = problem.cost,
): Float64Array {
  const { n, m } = problem;
  const out = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    let sum = 0;
    let min = Infinity;
    for (let i = 0; i < m; i++) {
      const c = cost[j * m + i]!;
      sum += c;
      if (c < min) min = c;
    }
    out[j] = weighting === 'mean' ? sum / m : min;
  }
  return out;
}

/** Upward rank: rank(j) = w_j + max over successors of rank(k). With no dependencies it is LPT's order. */
export function toUpwardRanks(problem: PlanProblem, weights: Float64Array): Float64Array {
  const rank = new Float64Array(problem.n);
  for (let index = problem.topo.length - 1; index >= 0; index--) {
    const j = problem.topo[index]!;
    let tail = 0;
    for (const k of problem.succs[j]!) tail = Math.max(tail, rank[k]!);
    rank[j] = weights[j]! + tail;
  }
  return rank;
}
