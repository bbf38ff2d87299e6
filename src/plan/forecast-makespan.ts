import { UsageError } from '../shared/errors.js';
import { createRandom, type Random } from '../shared/random.js';
import {
  createDispatchGuide,
  type DispatchGuide,
  type DispatchPlan,
  type DispatchState,
} from './dispatch-guide.js';
import type { CostInput } from './problem.js';
import { runDispatch, type DispatchStart } from './simulate-dispatch.js';

// The forecast: Monte Carlo over each target's cost distribution (its median and spread over the runs it was
// measured in, from .builders/target-costs), under the plan's placement and the run's dispatch policy. Each draw
// samples every target's build seconds and export bytes, simulates the whole run, and keeps its makespan, every
// target's finish and which targets and nodes ended on the critical chain. Live, the simulation starts from what
// has finished and what is running (conditioned on how long it has run). Statistics: docs/forecast.md.

/** A target's cost as a distribution: the median of each figure, sigma of its ln, and how many runs measured it. */
export interface CostDistribution {
  buildSeconds: number;
  buildSigma: number;
  buildRuns: number;
  cacheBytes: number;
  cacheSigma: number;
  cacheRuns: number;
  /** Seconds beyond build and export (target-costs `setup`); absent = 0. */
  setupSeconds?: number | undefined;
  setupSigma?: number | undefined;
  setupRuns?: number | undefined;
}

/** A distribution with every field set (setup 0 when unknown), as plan.json keeps it. */
export function toStoredDistribution(d: CostDistribution): Required<CostDistribution> {
  return {
    ...d,
    setupSeconds: d.setupSeconds ?? 0,
    setupSigma: d.setupSigma ?? 0,
    setupRuns: d.setupRuns ?? 1,
  };
}

/** Below this many runs of history for any target, the forecast says so instead of showing a band. */
const MIN_HISTORY_RUNS = 3;
export const DEFAULT_FORECAST_DRAWS = 2000;
/** The spread assumed for a figure measured in one run only (sigma of ln: ±25 %). */
const ASSUMED_SIGMA = 0.25;

interface Band {
  p10: number;
  p50: number;
  p90: number;
}

interface TargetForecast {
  /** Finish, seconds after the run's start. */
  finish: Band;
  /** Build plus export on the node that ran it in each draw. */
  duration: Band;
  /** Share of draws in which the target was on the critical chain. */
  criticalShare: number;
}

export interface Forecast {
  draws: number;
  seed: number;
  policy: 'fixed' | 'guided';
  /** The fewest runs behind any target's figures (0 when a figure has no spread line). */
  historyRuns: number;
  /** Targets with fewer than MIN_HISTORY_RUNS runs behind a figure. */
  thinTargets: string[];
  /** False when some target has too little history: renderers state that instead of the band. */
  banded: boolean;
  makespan: Band;
  /** The makespan's percentiles 0, 1, …, 100 over the draws: where an actual makespan landed. */
  quantiles: number[];
  targets: Record<string, TargetForecast>;
  /** Per node, the share of draws in which it ran a target of the critical chain, and in which it finished last. */
  nodes: Record<string, { criticalShare: number; endsShare: number }>;
  /** Live: seconds into the run the forecast was conditioned at; null at planning time. */
  conditionedAtSeconds: number | null;
}

/** What has happened in a run so far, by name: when each started target started and, if it has, finished. */
export interface ForecastProgress {
  nowSeconds: number;
  targets: Readonly<
    Record<string, { node: string; startSeconds: number; finishSeconds?: number | undefined }>
  >;
}

export interface ForecastOptions {
  plan: DispatchPlan;
  distributions: ReadonlyMap<string, CostDistribution>;
  policy?: 'fixed' | 'guided';
  draws?: number;
  seed?: number;
  progress?: ForecastProgress;
}

function findMissing(plan: DispatchPlan, distributions: ReadonlyMap<string, CostDistribution>): string[] {
  return Object.keys(plan.targets).filter((name) => !distributions.has(name));
}

function drawNormal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
}

/**
 * One figure's draw: ln(value) = ln(median) + s·Z, Z standard normal, s = sigma × √(1 + π/(2·runs)): the spread
 * plus the median's own sampling error (the median of n normal values has variance π/(2n)·σ²). One run gives no
 * spread: the assumed one. A Student-t for small histories was tried and dropped: on simulated histories it put
 * 100 % of 3-run trials under the p90 with a band twice as wide (docs/forecast.md).
 */
function drawFigure(random: Random, median: number, sigma: number, runs: number): number {
  const scale = runs < 2 ? ASSUMED_SIGMA : sigma * Math.sqrt(1 + Math.PI / (2 * runs));
  return median * Math.exp(clampExponent(scale * drawNormal(random)));
}

/** A figure's spread for drawing or placing: the one measured, or the assumed one for a single run. */
export function toFigureSigma(sigma: number, runs: number): number {
  return runs < 2 ? ASSUMED_SIGMA : sigma;
}

/** At most 20× either way from the median: a wild spread line must not overflow a schedule into Infinity and NaN. */
const MAX_EXPONENT = Math.log(20);
function clampExponent(exponent: number): number {
  return Math.max(-MAX_EXPONENT, Math.min(MAX_EXPONENT, exponent));
}

/** One draw of target j's duration on every node into row j of `duration` (target-major). */
function drawTargetRow(
  guide: DispatchGuide,
  figure: CostDistribution,
  random: Random,
  duration: Float64Array,
  j: number,
): void {
  const { problem } = guide;
  const build = drawFigure(random, figure.buildSeconds, figure.buildSigma, figure.buildRuns);
  const bytes = drawFigure(random, figure.cacheBytes, figure.cacheSigma, figure.cacheRuns);
  const setup = drawFigure(random, figure.setupSeconds ?? 0, figure.setupSigma ?? 0, figure.setupRuns ?? 1);
  problem.nodes.forEach((node, i) => {
    duration[j * problem.m + i] = build / node.speed + bytes / (node.linkMbps * 1e6) + setup;
  });
}

/**
 * One draw of every duration. Live, a running target has already run `elapsed`: its row is drawn again until it
 * ends after now (at most 50 tries; past that it is given 5 % more than it has run).
 */
function drawDurations(
  guide: DispatchGuide,
  figures: readonly CostDistribution[],
  random: Random,
  duration: Float64Array,
  start: DispatchStart | undefined,
): void {
  const { problem } = guide;
  for (let j = 0; j < problem.n; j++) drawTargetRow(guide, figures[j]!, random, duration, j);
  if (!start) return;
  for (let j = 0; j < problem.n; j++) {
    const i = start.node[j]!;
    if (i < 0 || !Number.isNaN(start.finish[j]!)) continue;
    const elapsed = start.nowSeconds - start.start[j]!;
    for (let tries = 0; duration[j * problem.m + i]! <= elapsed && tries < 50; tries++)
      drawTargetRow(guide, figures[j]!, random, duration, j);
    if (duration[j * problem.m + i]! <= elapsed) duration[j * problem.m + i] = elapsed * 1.05;
  }
}

function toDispatchStart(guide: DispatchGuide, progress: ForecastProgress): DispatchStart {
  const { problem } = guide;
  const index = new Map(problem.names.map((name, j) => [name, j]));
  const nodeIndex = new Map(problem.nodes.map((node, i) => [node.name, i]));
  const start: DispatchStart = {
    nowSeconds: progress.nowSeconds,
    node: new Int32Array(problem.n).fill(-1),
    start: new Float64Array(problem.n),
    finish: new Float64Array(problem.n).fill(NaN),
  };
  for (const [name, entry] of Object.entries(progress.targets)) {
    const j = index.get(name);
    const i = nodeIndex.get(entry.node);
    if (j === undefined || i === undefined) continue;
    start.node[j] = i;
    start.start[j] = entry.startSeconds;
    if (entry.finishSeconds !== undefined) start.finish[j] = entry.finishSeconds;
  }
  return start;
}

/** The critical chain of one simulated run: from the last finish back over the dependency or queue edge that held each start. */
function findChain(guide: DispatchGuide, state: DispatchState): number[] {
  const { problem } = guide;
  const eps = 1e-9;
  let current = -1;
  for (let j = 0; j < problem.n; j++)
    if (current < 0 || state.finish[j]! > state.finish[current]! + eps) current = j;
  const chain: number[] = [];
  while (current >= 0 && chain.length <= problem.n) {
    chain.push(current);
    const at = state.start[current]!;
    const near = (t: number) => Math.abs(t - at) <= eps * Math.max(1, at);
    let next = problem.preds[current]!.find((d) => near(state.finish[d]!)) ?? -1;
    if (next < 0)
      for (let k = 0; k < problem.n; k++)
        if (k !== current && state.node[k] === state.node[current] && near(state.finish[k]!)) next = k;
    current = next;
  }
  return chain;
}

function toBand(sorted: Float64Array): Band {
  return { p10: quantileOf(sorted, 0.1), p50: quantileOf(sorted, 0.5), p90: quantileOf(sorted, 0.9) };
}

/** Linear interpolation between order statistics (type 7). */
function quantileOf(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  const at = q * (sorted.length - 1);
  const low = Math.floor(at);
  const high = Math.min(sorted.length - 1, low + 1);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

/** Where an actual makespan landed in a forecast, as a percentile 0–100 (interpolated between its quantiles). */
export function findForecastPercentile(quantiles: readonly number[], actualSeconds: number): number {
  const last = quantiles.length - 1;
  if (last < 1 || actualSeconds <= quantiles[0]!) return 0;
  if (actualSeconds >= quantiles[last]!) return 100;
  for (let k = 1; k <= last; k++) {
    const [low, high] = [quantiles[k - 1]!, quantiles[k]!];
    if (actualSeconds <= high) {
      const within = high > low ? (actualSeconds - low) / (high - low) : 1;
      return ((k - 1 + within) / last) * 100;
    }
  }
  return 100;
}

function toMedianCosts(distributions: ReadonlyMap<string, CostDistribution>): Map<string, CostInput> {
  return new Map(
    [...distributions].map(([name, d]) => [
      name,
      { buildSeconds: d.buildSeconds, cacheBytes: d.cacheBytes, setupSeconds: d.setupSeconds ?? 0 },
    ]),
  );
}

function describeHistory(plan: DispatchPlan, distributions: ReadonlyMap<string, CostDistribution>) {
  const runsOf = (name: string) => {
    const d = distributions.get(name)!;
    return Math.min(d.buildRuns, d.cacheRuns, (d.setupSeconds ?? 0) > 0 ? (d.setupRuns ?? 1) : Infinity);
  };
  const names = Object.keys(plan.targets).sort();
  const thinTargets = names.filter((name) => runsOf(name) < MIN_HISTORY_RUNS);
  const historyRuns = names.length === 0 ? 0 : Math.min(...names.map(runsOf));
  return { thinTargets, historyRuns };
}

export function forecastMakespan(options: ForecastOptions): Forecast {
  const { plan, distributions, policy = 'fixed', draws = DEFAULT_FORECAST_DRAWS, seed = 1 } = options;
  const missing = findMissing(plan, distributions);
  if (missing.length > 0)
    throw new UsageError(`cannot forecast: no cost figures for ${missing.join(', ')}`, {
      hint: 'add `build` and `cache` lines for them to the target costs (rocm-perf costs --from RUN)',
    });
  const guide = createDispatchGuide(plan, toMedianCosts(distributions));
  const { problem } = guide;
  const random = createRandom(seed);
  const start = options.progress ? toDispatchStart(guide, options.progress) : undefined;
  const makespans = new Float64Array(draws);
  const finishes = problem.names.map(() => new Float64Array(draws));
  const durations = problem.names.map(() => new Float64Array(draws));
  const onChain = new Float64Array(problem.n);
  const nodeOnChain = new Float64Array(problem.m);
  const nodeEnds = new Float64Array(problem.m);
  const figures = problem.names.map((name) => distributions.get(name)!);
  const duration = new Float64Array(problem.n * problem.m);
  for (let d = 0; d < draws; d++) {
    drawDurations(guide, figures, random, duration, start);
    const state = runDispatch(guide, { policy, duration, from: start });
    let makespan = 0;
    for (let j = 0; j < problem.n; j++) {
      finishes[j]![d] = state.finish[j]!;
      durations[j]![d] = state.finish[j]! - state.start[j]!;
      makespan = Math.max(makespan, state.finish[j]!);
    }
    makespans[d] = makespan;
    const chainNodes = new Set<number>();
    const chain = findChain(guide, state);
    if (chain.length > 0) nodeEnds[state.node[chain[0]!]!]! += 1;
    for (const j of chain) {
      onChain[j]! += 1;
      chainNodes.add(state.node[j]!);
    }
    for (const i of chainNodes) nodeOnChain[i]! += 1;
  }
  makespans.sort();
  const targets: Record<string, TargetForecast> = {};
  problem.names.forEach((name, j) => {
    targets[name] = {
      finish: toBand(finishes[j]!.sort()),
      duration: toBand(durations[j]!.sort()),
      criticalShare: onChain[j]! / draws,
    };
  });
  const history = describeHistory(plan, distributions);
  return {
    draws,
    seed,
    policy,
    ...history,
    banded: history.thinTargets.length === 0,
    makespan: toBand(makespans),
    quantiles: Array.from({ length: 101 }, (_, k) => quantileOf(makespans, k / 100)),
    targets,
    nodes: Object.fromEntries(
      problem.nodes.map((node, i) => [
        node.name,
        { criticalShare: nodeOnChain[i]! / draws, endsShare: nodeEnds[i]! / draws },
      ]),
    ),
    conditionedAtSeconds: options.progress?.nowSeconds ?? null,
  };
}
