import { toMinCosts, type PlanProblem } from './problem.js';

// Lower bounds on the optimal makespan (no schedule can beat them), all under the plan's cost model:
// - path: the longest dependency chain with every target at its cheapest node;
// - load: the fractional assignment bound. By LP duality, for ANY node weights y ≥ 0 with Σy = 1,
//   Σ_j min_i y_i·p_ij ≤ T for every feasible T; we search y by exponentiated-gradient ascent and keep the best;
// - window: the load bound applied to the targets that cannot start before `a` (head) and cannot finish later
//   than T − b (tail): T ≥ a + b + load(those targets);
// - target: the most expensive target at its cheapest node.

export interface LowerBound {
  lowerBoundSeconds: number;
  pathSeconds: number;
  loadSeconds: number;
  windowSeconds: number;
  targetSeconds: number;
  /** The chain that gives `pathSeconds`, first to last. */
  path: number[];
}

const ASCENT_STEPS = 160;
// Head and tail values tried by the window bound: 12 each for small graphs, fewer above 50 targets (cost ∝ n²).
function toWindowValueCount(n: number): number {
  return Math.max(6, Math.min(12, Math.floor(600 / Math.max(1, n))));
}

/** Σ_{j∈S} min_i y_i·p_ij, and each node's load when every target sits at its y-cheapest node. */
function dualValue(
  problem: PlanProblem,
  subset: readonly number[],
  y: Float64Array,
  loads: Float64Array,
): number {
  const { m, cost } = problem;
  loads.fill(0);
  let value = 0;
  for (const j of subset) {
    let best = Infinity;
    let bestNode = 0;
    for (let i = 0; i < m; i++) {
      const weighted = y[i]! * cost[j * m + i]!;
      if (weighted < best) {
        best = weighted;
        bestNode = i;
      }
    }
    value += best;
    loads[bestNode]! += cost[j * m + bestNode]!;
  }
  return value;
}

/** Start from y_i ∝ 1 / (node i's total cost), exact for uniform machines. */
function initialWeights(problem: PlanProblem, subset: readonly number[]): Float64Array {
  const y = new Float64Array(problem.m);
  let sum = 0;
  for (let i = 0; i < problem.m; i++) {
    let total = 0;
    for (const j of subset) total += problem.cost[j * problem.m + i]!;
    y[i] = total > 0 ? 1 / total : 1;
    sum += y[i]!;
  }
  for (let i = 0; i < problem.m; i++) y[i]! /= sum;
  return y;
}

/** Best fractional-load lower bound found for a subset of targets. */
function findLoadBound(problem: PlanProblem, subset: readonly number[], steps = ASCENT_STEPS): number {
  if (subset.length === 0) return 0;
  const y = initialWeights(problem, subset);
  const loads = new Float64Array(problem.m);
  let best = 0;
  for (let step = 0; step < steps; step++) {
    const value = dualValue(problem, subset, y, loads);
    best = Math.max(best, value);
    if (value <= 0) break;
    const rate = 2 / Math.sqrt(step + 1);
    let sum = 0;
    for (let i = 0; i < problem.m; i++) {
      y[i]! *= Math.exp(Math.max(-20, Math.min(20, (rate * (loads[i]! - value)) / value)));
      sum += y[i]!;
    }
    for (let i = 0; i < problem.m; i++) y[i] = Math.max(y[i]! / sum, 1e-12);
  }
  return best;
}

export interface HeadsTails {
  head: Float64Array;
  tail: Float64Array;
  own: Float64Array;
}

export function toHeadsTails(problem: PlanProblem): HeadsTails {
  const own = toMinCosts(problem);
  const head = new Float64Array(problem.n);
  const tail = new Float64Array(problem.n);
  for (const j of problem.topo)
    for (const d of problem.preds[j]!) head[j] = Math.max(head[j]!, head[d]! + own[d]!);
  for (let q = problem.topo.length - 1; q >= 0; q--) {
    const j = problem.topo[q]!;
    for (const k of problem.succs[j]!) tail[j] = Math.max(tail[j]!, tail[k]! + own[k]!);
  }
  return { head, tail, own };
}

function findPath(
  problem: PlanProblem,
  { head, tail, own }: HeadsTails,
): { seconds: number; path: number[] } {
  let seconds = 0;
  let current = problem.n > 0 ? 0 : -1;
  for (let j = 0; j < problem.n; j++) {
    const through = head[j]! + own[j]! + tail[j]!;
    if (through > seconds) [seconds, current] = [through, j];
  }
  // Walk back to the chain's first target, then forward along the tails.
  const isOnHead = (d: number, j: number) => head[d]! + own[d]! === head[j]!;
  const isOnTail = (j: number, k: number) => own[k]! + tail[k]! === tail[j]!;
  while (current >= 0 && head[current]! > 0)
    current = problem.preds[current]!.find((d) => isOnHead(d, current)) ?? -1;
  const path: number[] = [];
  while (current >= 0) {
    path.push(current);
    const from = current;
    current = tail[from]! > 0 ? (problem.succs[from]!.find((k) => isOnTail(from, k)) ?? -1) : -1;
  }
  return { seconds, path };
}

function pickValues(values: Float64Array): number[] {
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  const count = toWindowValueCount(values.length);
  if (distinct.length <= count) return distinct;
  return Array.from(
    { length: count },
    (_, k) => distinct[Math.floor((k * (distinct.length - 1)) / (count - 1))]!,
  );
}

/**
 * Per target, 1 / Σ_i 1/p_ij: its share of the fractional schedule that splits it over every node so each spends the
 * same time on it. Summed over a set S this is a feasible fractional makespan, so by weak duality no dual value of S
 * exceeds it (Σ_j min_i y_i·p_ij ≤ Σ_i y_i·Σ_j x_ij·p_ij = Σ_i y_i·T_h with x_ij = h_j/p_ij).
 */
function toHarmonicShares(problem: PlanProblem): Float64Array {
  const { n, m, cost } = problem;
  const share = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    let rate = 0;
    for (let i = 0; i < m; i++) rate += 1 / cost[j * m + i]!;
    share[j] = 1 / rate;
  }
  return share;
}

/** Relative slack on the harmonic ceiling: the ascent's weights sum to 1 only within m·1e-12 (their floor). */
const CEILING_SLACK = 1e-6;

/**
 * The best window bound. Every window's load bound is at most its harmonic ceiling (toHarmonicShares), so windows
 * are tried highest ceiling first and one whose a + b + ceiling cannot beat the best found is not computed: the
 * maximum, and so `windowSeconds`, is exactly what computing every window gives (`prune: false` computes every
 * one; test/unit/plan/lower-bound.test.ts holds the two equal).
 */
export function findWindowBound(problem: PlanProblem, { head, tail }: HeadsTails, prune = true): number {
  const share = toHarmonicShares(problem);
  const windows: { offset: number; subset: number[]; ceiling: number }[] = [];
  for (const a of pickValues(head)) {
    for (const b of pickValues(tail)) {
      if (a === 0 && b === 0) continue;
      const subset: number[] = [];
      let harmonic = 0;
      for (let j = 0; j < problem.n; j++)
        if (head[j]! >= a && tail[j]! >= b) {
          subset.push(j);
          harmonic += share[j]!;
        }
      if (subset.length > 1) windows.push({ offset: a + b, subset, ceiling: a + b + harmonic });
    }
  }
  windows.sort((x, y) => y.ceiling - x.ceiling);
  let best = 0;
  for (const { offset, subset, ceiling } of windows) {
    if (prune && ceiling * (1 + CEILING_SLACK) < best) break;
    best = Math.max(best, offset + findLoadBound(problem, subset, 40));
  }
  return best;
}

export function findLowerBound(problem: PlanProblem): LowerBound {
  const headsTails = toHeadsTails(problem);
  const { seconds: pathSeconds, path } = findPath(problem, headsTails);
  const all = Array.from({ length: problem.n }, (_, j) => j);
  const loadSeconds = findLoadBound(problem, all);
  const windowSeconds = findWindowBound(problem, headsTails);
  const targetSeconds = Math.max(0, ...headsTails.own);
  const lowerBoundSeconds = Math.max(pathSeconds, loadSeconds, windowSeconds, targetSeconds);
  return { lowerBoundSeconds, pathSeconds, loadSeconds, windowSeconds, targetSeconds, path };
}
