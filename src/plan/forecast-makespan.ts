import { InternalError, UsageError } from '../shared/errors.js';
import { createRandom, type Random } from '../shared/random.js';
import {
  createDispatchGuide,
  createDispatchState,
  type DispatchGuide,
  type DispatchPlan,
  type DispatchState,
} from './dispatch-guide.js';
import type { CostInput } from './problem.js';
import { createFixedQueues, runFixedQueues, toFixedNode, type FixedQueues } from './run-fixed-queues.js';
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
/** The most draws a forecast makes (`--draws`); it stops earlier once its quantiles have settled. */
export const DEFAULT_FORECAST_DRAWS = 2000;
/**
 * The convergence rule (docs/forecast.md, "How many draws"): draw in batches of SETTLE_BATCH; from
 * MIN_SETTLE_DRAWS on, after each batch, stop once the 95 % confidence interval of each of the makespan's p10, p50
 * and p90 (from the order statistics: ranks N·q ± 1.96·√(N·q·(1−q))) is at most SETTLE_TOLERANCE (1 %) of the p50 wide
 * on either side. It reads only the draws, so a seed gives the same draws and the same stop every time.
 */
const SETTLE_BATCH = 250;
const MIN_SETTLE_DRAWS = 500;
const SETTLE_TOLERANCE = 0.01;
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
  /**
   * Live only: per running target that outran its draws, the share of draws in which every duration drawn for it
   * (the first and up to 50 more) ended before now, so the draw only gave it 5 % more than it has run: its finish
   * there is a guess.
   */
  overdueShares?: Record<string, number>;
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
  /** The most draws (default DEFAULT_FORECAST_DRAWS). */
  draws?: number;
  /** Draws made before the convergence rule may stop (default min(draws, 500)); `draws` here = a fixed count. */
  minDraws?: number;
  seed?: number;
  progress?: ForecastProgress;
  /**
   * No drawn makespan below this (the plan's lower bound at planning time): see `forecastMakespan`. Live
   * forecasts pass none: what has finished is measured, not drawn.
   */
  floorSeconds?: number;
}

function findMissing(plan: DispatchPlan, distributions: ReadonlyMap<string, CostDistribution>): string[] {
  return Object.keys(plan.targets).filter((name) => !distributions.has(name));
}

/**
 * One figure's draw: ln(value) = ln(median) + s·Z, Z standard normal (Box–Muller), s = `toDrawScale`. A median of 0
 * stays 0, its two uniforms still drawn so the stream is the same.
 */
function drawFigure(random: Random, median: number, scale: number): number {
  const first = random.next();
  const second = random.next();
  if (median === 0) return 0;
  const radius = Math.sqrt(-2 * Math.log(1 - first));
  const angle = 2 * Math.PI * second;
  return median * Math.exp(clampExponent(scale * (radius * Math.cos(angle))));
}

/**
 * A figure's draw width: s = sigma × √(1 + π/(2·runs)): the spread plus the median's own sampling error (the median
 * of n normal values has variance π/(2n)·σ²). One run gives no spread: the assumed one. A Student-t for small
 * histories was tried and dropped: on simulated histories it put 100 % of 3-run trials under the p90 with a band
 * twice as wide (docs/forecast.md).
 */
function toDrawScale(sigma: number, runs: number): number {
  return runs < 2 ? ASSUMED_SIGMA : sigma * Math.sqrt(1 + Math.PI / (2 * runs));
}

/** Per target, six numbers: the median and draw width of its build seconds, its bytes and its setup seconds. */
function toDrawFigures(figures: readonly CostDistribution[]): Float64Array {
  const out = new Float64Array(figures.length * 6);
  figures.forEach((f, j) => {
    out.set(
      [
        f.buildSeconds,
        toDrawScale(f.buildSigma, f.buildRuns),
        f.cacheBytes,
        toDrawScale(f.cacheSigma, f.cacheRuns),
        f.setupSeconds ?? 0,
        toDrawScale(f.setupSigma ?? 0, f.setupRuns ?? 1),
      ],
      j * 6,
    );
  });
  return out;
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

/** Where a draw needs durations: every node (guided dispatch may move a target), or one node per target. */
type DrawNodes = { every: true } | { every: false; node: Int32Array };

/**
 * One draw of target j's duration into row j of `duration` (target-major): on every node, or on its one node
 * under fixed queues (the same three figures are drawn either way, so the random stream does not change).
 */
function drawTargetRow(guide: DispatchGuide, context: DrawContext, j: number): void {
  const { problem } = guide;
  const { figures: f, random, duration, nodes } = context;
  const build = drawFigure(random, f[j * 6]!, f[j * 6 + 1]!);
  const bytes = drawFigure(random, f[j * 6 + 2]!, f[j * 6 + 3]!);
  const setup = drawFigure(random, f[j * 6 + 4]!, f[j * 6 + 5]!);
  const low = nodes.every ? 0 : nodes.node[j]!;
  const high = nodes.every ? problem.m : low + 1;
  for (let i = low; i < high; i++)
    duration[j * problem.m + i] = build / context.speed[i]! + bytes / context.linkBytesPerSecond[i]! + setup;
}

/**
 * `drawFigure` of uniforms already drawn (the same operations in the same order, so the same bits), inlined into
 * the batch loop of `drawDurations`: no call and no boxed number per figure.
 */
function toFigure(first: number, second: number, median: number, scale: number): number {
  if (median === 0) return 0;
  const radius = Math.sqrt(-2 * Math.log(1 - first));
  const angle = 2 * Math.PI * second;
  return median * Math.exp(clampExponent(scale * (radius * Math.cos(angle))));
}

/**
 * One draw of every duration. The first pass takes every target's six uniforms in one batch (`Random.fill`: the
 * stream `drawTargetRow` would read, target by target). Live, a running target has already run `elapsed`: its row
 * is drawn again until it ends after now (at most 50 tries; past that it is given 5 % more than it has run).
 */
function drawDurations(guide: DispatchGuide, context: DrawContext): void {
  const { problem } = guide;
  const { m, n } = problem;
  const { duration, start, uniforms: u, figures: f, speed, linkBytesPerSecond: link, nodes } = context;
  context.random.fill(u);
  for (let j = 0; j < n; j++) {
    const k = j * 6;
    const build = toFigure(u[k]!, u[k + 1]!, f[k]!, f[k + 1]!);
    const bytes = toFigure(u[k + 2]!, u[k + 3]!, f[k + 2]!, f[k + 3]!);
    const setup = toFigure(u[k + 4]!, u[k + 5]!, f[k + 4]!, f[k + 5]!);
    if (nodes.every)
      for (let i = 0; i < m; i++) duration[j * m + i] = build / speed[i]! + bytes / link[i]! + setup;
    else {
      const i = nodes.node[j]!;
      duration[j * m + i] = build / speed[i]! + bytes / link[i]! + setup;
    }
  }
  if (!start) return;
  for (let j = 0; j < problem.n; j++) {
    const i = start.node[j]!;
    if (i < 0 || !Number.isNaN(start.finish[j]!)) continue;
    const elapsed = start.nowSeconds - start.start[j]!;
    for (let tries = 0; duration[j * problem.m + i]! <= elapsed && tries < 50; tries++)
      drawTargetRow(guide, context, j);
    if (duration[j * problem.m + i]! <= elapsed) {
      duration[j * problem.m + i] = elapsed * 1.05;
      context.overdue[j]! += 1;
    }
  }
}

interface DrawContext {
  /** `toDrawFigures`. */
  figures: Float64Array;
  random: Random;
  duration: Float64Array;
  start: DispatchStart | undefined;
  nodes: DrawNodes;
  /** Per target, the draws in which it had run past every duration drawn for it (live only). */
  overdue: Float64Array;
  /** Per node: its speed, and its link in bytes per second (linkMbps × 10^6). */
  speed: Float64Array;
  linkBytesPerSecond: Float64Array;
  /** Scratch: one draw's uniforms, six per target (`drawDurations`). */
  uniforms: Float64Array;
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

/** Each node's targets in one simulated run, in index order (a counting sort into reused arrays). */
interface NodeMembers {
  offset: Int32Array;
  member: Int32Array;
}

function createNodeMembers(n: number, m: number): NodeMembers {
  return { offset: new Int32Array(m + 1), member: new Int32Array(n) };
}

function fillNodeMembers(members: NodeMembers, state: DispatchState): void {
  const { offset, member } = members;
  offset.fill(0);
  for (const i of state.node) offset[i + 1]! += 1;
  for (let i = 1; i < offset.length; i++) offset[i]! += offset[i - 1]!;
  const next = offset.slice(0, -1);
  for (let j = 0; j < state.node.length; j++) member[next[state.node[j]!]!++] = j;
}

/**
 * The critical chain of one simulated run: from the last finish back over the dependency or queue edge that held
 * each start (a wait that finished just then, else the last-indexed target of the same node that did).
 */
function findChain(guide: DispatchGuide, state: DispatchState, members: NodeMembers): number[] {
  const { problem } = guide;
  const eps = 1e-9;
  let current = -1;
  for (let j = 0; j < problem.n; j++)
    if (current < 0 || state.finish[j]! > state.finish[current]! + eps) current = j;
  fillNodeMembers(members, state);
  const chain: number[] = [];
  while (current >= 0 && chain.length <= problem.n) {
    chain.push(current);
    const at = state.start[current]!;
    const tolerance = eps * Math.max(1, at);
    let next = -1;
    for (const d of problem.preds[current]!)
      if (Math.abs(state.finish[d]! - at) <= tolerance) {
        next = d;
        break;
      }
    const i = state.node[current]!;
    if (next < 0)
      for (let p = members.offset[i]!; p < members.offset[i + 1]!; p++) {
        const k = members.member[p]!;
        if (k !== current && Math.abs(state.finish[k]! - at) <= tolerance) next = k;
      }
    current = next;
  }
  return chain;
}

/** The least of values[from…to] (Infinity when empty). */
function leastOf(values: Float64Array, from: number, to: number): number {
  let least = Infinity;
  for (let k = from; k <= to; k++) if (values[k]! < least) least = values[k]!;
  return least;
}

/**
 * p10/p50/p90 of unsorted values, as `toBand` of them sorted gives, without sorting: each order statistic the
 * type-7 interpolation reads is selected (quickselect, in place; the array is left partly ordered). The median's
 * low rank is selected first, over the whole array; then p10's in what lies left of it and p90's in what lies right.
 * The next order statistic after each (the interpolation's upper value) is the least of what lies between it and
 * the next selected rank, so each scan reads only that stretch.
 */
export function selectBand(values: Float64Array): Band {
  const last = values.length - 1;
  if (last < 0) return { p10: NaN, p50: NaN, p90: NaN };
  const at = (q: number) => q * last;
  const [low10, low50, low90] = [0.1, 0.5, 0.9].map((q) => Math.floor(at(q))) as [number, number, number];
  const v50 = selectNth(values, low50, 0, last);
  const v10 = low10 < low50 ? selectNth(values, low10, 0, low50 - 1) : v50;
  const v90 = low90 > low50 ? selectNth(values, low90, low50 + 1, last) : v50;
  // values[…low50] ≤ v50 ≤ values[low50 + 1…], and likewise around low10 (left of low50) and low90 (right of it).
  const next10 = low10 < low50 ? leastOf(values, low10 + 1, low50) : undefined;
  const next50 = leastOf(values, low50 + 1, low90 > low50 ? low90 : last);
  const next90 = low90 > low50 ? leastOf(values, low90 + 1, last) : next50;
  const pick = (q: number, low: number, lowValue: number, next: number) =>
    low + 1 > last ? lowValue : lowValue + (next - lowValue) * (at(q) - low);
  return {
    p10: pick(0.1, low10, v10, next10 ?? next50),
    p50: pick(0.5, low50, v50, next50),
    p90: pick(0.9, low90, v90, next90),
  };
}

/**
 * The k-th smallest (0-based) of values[from…to], moved to index k with smaller values before it and larger after
 * (Hoare), searching that stretch only: every value before `from` must be no larger, and every value after `to` no
 * smaller, than every value in it.
 */
function selectNth(values: Float64Array, k: number, from: number, to: number): number {
  let [left, right] = [from, to];
  while (right > left) {
    const pivot = values[(left + right) >> 1]!;
    let [i, j] = [left, right];
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return values[k]!;
}

function toBand(sorted: Float64Array): Band {
  return { p10: quantileOf(sorted, 0.1), p50: quantileOf(sorted, 0.5), p90: quantileOf(sorted, 0.9) };
}

/** Targets gathered per block: a block's finishes in one draw share a cache line or two. */
const BAND_BLOCK = 8;

/**
 * Each target's finish and duration bands and its share of draws on the critical chain, from the draws' rows
 * (draw-major, as the simulation gives them): gathered a block of targets at a time, so each row is read once per
 * block rather than once per target.
 */
function toTargetBands({
  names,
  finishByDraw,
  startByDraw,
  drawn,
  onChain,
}: {
  names: readonly string[];
  finishByDraw: Float64Array;
  startByDraw: Float64Array;
  drawn: number;
  onChain: Float64Array;
}): Record<string, TargetForecast> {
  const n = names.length;
  const finishRows = new Float64Array(BAND_BLOCK * drawn);
  const durationRows = new Float64Array(BAND_BLOCK * drawn);
  const targets: Record<string, TargetForecast> = {};
  for (let first = 0; first < n; first += BAND_BLOCK) {
    const width = Math.min(BAND_BLOCK, n - first);
    for (let d = 0; d < drawn; d++) {
      const row = d * n + first;
      for (let b = 0; b < width; b++) {
        const finish = finishByDraw[row + b]!;
        finishRows[b * drawn + d] = finish;
        durationRows[b * drawn + d] = finish - startByDraw[row + b]!;
      }
    }
    for (let b = 0; b < width; b++) {
      const j = first + b;
      targets[names[j]!] = {
        finish: selectBand(finishRows.subarray(b * drawn, (b + 1) * drawn)),
        duration: selectBand(durationRows.subarray(b * drawn, (b + 1) * drawn)),
        criticalShare: onChain[j]! / drawn,
      };
    }
  }
  return targets;
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

/** The fewest runs behind any target's figures, and the targets with fewer than 3: whether a band can be shown. */
export function describeForecastHistory(
  plan: Pick<DispatchPlan, 'targets'>,
  distributions: ReadonlyMap<string, CostDistribution>,
): { thinTargets: string[]; historyRuns: number } {
  const runsOf = (name: string) => {
    const d = distributions.get(name)!;
    return Math.min(d.buildRuns, d.cacheRuns, (d.setupSeconds ?? 0) > 0 ? (d.setupRuns ?? 1) : Infinity);
  };
  const names = Object.keys(plan.targets).sort();
  const thinTargets = names.filter((name) => runsOf(name) < MIN_HISTORY_RUNS);
  const historyRuns = names.length === 0 ? 0 : Math.min(...names.map(runsOf));
  return { thinTargets, historyRuns };
}

/** Whether the convergence rule stops after `count` draws (see SETTLE_TOLERANCE). */
function hasSettled(makespans: Float64Array, count: number): boolean {
  const sorted = makespans.slice(0, count).sort();
  const p50 = quantileOf(sorted, 0.5);
  return [0.1, 0.5, 0.9].every((q) => {
    const spread = 1.96 * Math.sqrt(count * q * (1 - q));
    const low = sorted[Math.max(0, Math.floor(count * q - spread))]!;
    const high = sorted[Math.min(count - 1, Math.ceil(count * q + spread))]!;
    return (high - low) / 2 <= SETTLE_TOLERANCE * p50;
  });
}

/** One simulated run per draw: the sweep of fixed queues where it applies, else the event loop. */
function createSimulator(
  guide: DispatchGuide,
  policy: 'fixed' | 'guided',
  start: DispatchStart | undefined,
): { nodes: DrawNodes; simulate: (duration: Float64Array) => DispatchState } {
  const { problem } = guide;
  const fixed: FixedQueues | undefined = policy === 'fixed' ? createFixedQueues(guide) : undefined;
  if (!fixed)
    return {
      nodes: { every: true },
      simulate: (duration) => runDispatch(guide, { policy, duration, from: start }),
    };
  const node = Int32Array.from(problem.names, (_, j) => toFixedNode(fixed, start, j));
  const into = createDispatchState(problem.n);
  const free = new Float64Array(problem.m);
  return {
    nodes: { every: false, node },
    simulate: (duration) => {
      for (let j = 0; j < problem.n; j++) {
        const seconds = duration[j * problem.m + node[j]!]!;
        if (!(seconds >= 0 && seconds < Infinity))
          throw new InternalError(
            `dispatch: target ${problem.names[j]} has duration ${seconds} on node ${problem.nodes[node[j]!]!.name}`,
          );
      }
      return runFixedQueues(guide, { fixed, duration, from: start, into, free });
    },
  };
}

/**
 * The Monte Carlo. Under fixed queues a draw is one sweep (runFixedQueues) and durations are drawn only on each
 * target's own node; guided dispatch runs the event loop. Draws stop once the quantiles have settled (hasSettled),
 * between `minDraws` and `draws`. With `floorSeconds` (the plan's lower bound) a drawn makespan under it counts as
 * the bound: the bound is what the planner proves for the median costs, and a band under it would contradict the
 * plan it is printed with (docs/forecast.md, "The band and the lower bound").
 */
export function forecastMakespan(options: ForecastOptions): Forecast {
  const { plan, distributions, policy = 'fixed', draws = DEFAULT_FORECAST_DRAWS, seed = 1 } = options;
  const minDraws = Math.min(draws, options.minDraws ?? MIN_SETTLE_DRAWS);
  const floor = options.floorSeconds ?? 0;
  const missing = findMissing(plan, distributions);
  if (missing.length > 0)
    throw new UsageError(`cannot forecast: no cost figures for ${missing.join(', ')}`, {
      hint: 'add `build` and `cache` lines for them to the target costs (rocm-perf costs --from RUN)',
    });
  const guide = createDispatchGuide(plan, toMedianCosts(distributions));
  const { problem } = guide;
  const start = options.progress ? toDispatchStart(guide, options.progress) : undefined;
  const simulator = createSimulator(guide, policy, start);
  const context: DrawContext = {
    figures: toDrawFigures(problem.names.map((name) => distributions.get(name)!)),
    random: createRandom(seed),
    duration: new Float64Array(problem.n * problem.m),
    start,
    nodes: simulator.nodes,
    overdue: new Float64Array(problem.n),
    speed: Float64Array.from(problem.nodes, (node) => node.speed),
    linkBytesPerSecond: Float64Array.from(problem.nodes, (node) => node.linkMbps * 1e6),
    uniforms: new Float64Array(problem.n * 6),
  };
  const makespans = new Float64Array(draws);
  // Every draw's finishes and starts, a row per draw (copied whole from the simulation): `toTargetBands` reads them
  // back per target.
  const finishByDraw = new Float64Array(problem.n * draws);
  const startByDraw = new Float64Array(problem.n * draws);
  const onChain = new Float64Array(problem.n);
  const nodeOnChain = new Float64Array(problem.m);
  const nodeEnds = new Float64Array(problem.m);
  const members = createNodeMembers(problem.n, problem.m);
  const chainNodes = new Uint8Array(problem.m);
  let drawn = 0;
  for (; drawn < draws; drawn++) {
    if (drawn >= minDraws && drawn % SETTLE_BATCH === 0 && hasSettled(makespans, drawn)) break;
    const d = drawn;
    drawDurations(guide, context);
    const state = simulator.simulate(context.duration);
    finishByDraw.set(state.finish, d * problem.n);
    startByDraw.set(state.start, d * problem.n);
    let makespan = 0;
    for (let j = 0; j < problem.n; j++) makespan = Math.max(makespan, state.finish[j]!);
    makespans[d] = Math.max(floor, makespan);
    const chain = findChain(guide, state, members);
    chainNodes.fill(0);
    if (chain.length > 0) nodeEnds[state.node[chain[0]!]!]! += 1;
    for (const j of chain) {
      onChain[j]! += 1;
      chainNodes[state.node[j]!] = 1;
    }
    for (let i = 0; i < problem.m; i++) nodeOnChain[i]! += chainNodes[i]!;
  }
  const sortedMakespans = makespans.subarray(0, drawn).sort();
  const targets = toTargetBands({ names: problem.names, finishByDraw, startByDraw, drawn, onChain });
  const history = describeForecastHistory(plan, distributions);
  return {
    draws: drawn,
    seed,
    policy,
    ...history,
    banded: history.thinTargets.length === 0,
    makespan: toBand(sortedMakespans),
    quantiles: Array.from({ length: 101 }, (_, k) => quantileOf(sortedMakespans, k / 100)),
    targets,
    nodes: Object.fromEntries(
      problem.nodes.map((node, i) => [
        node.name,
        { criticalShare: nodeOnChain[i]! / drawn, endsShare: nodeEnds[i]! / drawn },
      ]),
    ),
    conditionedAtSeconds: options.progress?.nowSeconds ?? null,
    ...(start === undefined
      ? {}
      : {
          overdueShares: Object.fromEntries(
            problem.names.flatMap((name, j) =>
              context.overdue[j]! > 0 ? [[name, context.overdue[j]! / drawn] as const] : [],
            ),
          ),
        }),
  };
}
