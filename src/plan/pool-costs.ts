import type { CostSpread, TargetCost } from '../config/index.js';
import { InternalError } from '../shared/errors.js';

// Costs as distributions (docs/planning.md, "Costs as distributions"): one target's figures from several runs of
// the same harness, lane and arch → their median, the spread of ln(figure) and how many runs gave one. Pure.

/** A figure pooled over runs: the median, sigma of ln(figure) (a robust estimate), and the count of runs. */
interface PooledFigure {
  median: number;
  sigma: number;
  runs: number;
}

/**
 * Finite-sample factors for the MAD (Croux & Rousseeuw 1992, checked here by simulation): 1.4826 × MAD of n normal
 * values averages 0.67σ at n = 3, 0.73σ at n = 4, 0.82σ at n = 5. Index = n; above 9, n / (n − 0.8).
 */
const MAD_FACTORS: Readonly<Record<number, number>> = {
  3: 1.495,
  4: 1.363,
  5: 1.206,
  6: 1.2,
  7: 1.14,
  8: 1.129,
  9: 1.107,
};

function toMadFactor(n: number): number {
  return MAD_FACTORS[n] ?? n / (n - 0.8);
}

/** The ordinary median: the middle value, or the mean of the two middle ones. */
function toMedian(values: readonly number[]): number {
  if (values.length === 0) throw new InternalError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A robust sigma of ln(value): 0 for one value, |ln a − ln b| / √2 for two (their standard deviation), and from
 * three on b_n × 1.4826 × the median absolute deviation of the ln values from their median. Values ≤ 0 have no
 * logarithm and are left out of it.
 */
export function estimateLogSigma(values: readonly number[]): number {
  const logs = values.filter((value) => value > 0).map(Math.log);
  if (logs.length < 2) return 0;
  if (logs.length === 2) return Math.abs(logs[0]! - logs[1]!) / Math.SQRT2;
  const center = toMedian(logs);
  const mad = toMedian(logs.map((value) => Math.abs(value - center)));
  return toMadFactor(logs.length) * 1.4826 * mad;
}

/** @internal */
export function poolFigure(values: readonly number[]): PooledFigure {
  return { median: toMedian(values), sigma: estimateLogSigma(values), runs: values.length };
}

/** One run's identity for pooling: figures from different harnesses, lanes or arches are different quantities. */
export interface PoolableRun {
  stamp: string;
  harness: string;
  /** Where the run was recorded (lane.txt; `fleet` when absent). A scaled box's runs are a lane of their own. */
  lane: string;
  arch: string;
}

export interface PoolingRefusal {
  stamp: string;
  reason: string;
}

/** Why each run after the first cannot be pooled with the first; empty when all can. */
export function findPoolingRefusals(runs: readonly PoolableRun[]): PoolingRefusal[] {
  const [first, ...rest] = runs;
  if (!first) return [];
  const seen = new Set([first.stamp]);
  const refusals: PoolingRefusal[] = [];
  for (const run of rest) {
    const reason = findRefusal(first, run, seen);
    if (reason) refusals.push({ stamp: run.stamp, reason });
    seen.add(run.stamp);
  }
  return refusals;
}

function findRefusal(first: PoolableRun, run: PoolableRun, seen: ReadonlySet<string>): string | undefined {
  if (seen.has(run.stamp)) return `run ${run.stamp} is given twice; it would count twice in the medians`;
  if (run.harness !== first.harness)
    return `run ${run.stamp} is a ${run.harness} run and the first, ${first.stamp}, a ${first.harness} run; a harness measures its own quantity (cold compile, warm cache hits, bench), so their figures do not pool`;
  if (run.lane !== first.lane)
    return `run ${run.stamp} is in lane \`${run.lane}\` and the first, ${first.stamp}, in lane \`${first.lane}\`; another lane is another fleet or a scaled box (its seconds and bytes shrunk by its time and link scales), so their figures do not pool`;
  if (run.arch !== first.arch)
    return `run ${run.stamp} built ${run.arch} and the first, ${first.stamp}, ${first.arch}; each arch has its own costs file`;
  return undefined;
}

/** One target's figures from each run that gave one, already normalised to reference speed. */
export interface TargetSamples {
  buildSeconds: readonly number[];
  warmBuildSeconds: readonly number[];
  cacheBytes: readonly number[];
  /** Bytes of the image push alone, from any run that pushed an image (cold and bench runs push nothing else). */
  imageBytes?: readonly number[];
  /** Seconds beyond build steps and uploads, from cold or bench runs (`setup`) and warm runs (`warm-setup`). */
  setupSeconds?: readonly number[];
  warmSetupSeconds?: readonly number[];
}

export interface PooledCost {
  buildSeconds: number | undefined;
  warmBuildSeconds: number | undefined;
  cacheBytes: number | undefined;
  imageBytes?: number | undefined;
  setupSeconds?: number | undefined;
  warmSetupSeconds?: number | undefined;
}

export interface PooledSpreads {
  buildSpread?: Pick<CostSpread, 'sigma' | 'runs'>;
  warmBuildSpread?: Pick<CostSpread, 'sigma' | 'runs'>;
  cacheSpread?: Pick<CostSpread, 'sigma' | 'runs'>;
  imageSpread?: Pick<CostSpread, 'sigma' | 'runs'>;
  setupSpread?: Pick<CostSpread, 'sigma' | 'runs'>;
  warmSetupSpread?: Pick<CostSpread, 'sigma' | 'runs'>;
}

const toSpread = ({ sigma, runs }: PooledFigure) => ({ sigma, runs });
const keepSpread = (spread: CostSpread | undefined) =>
  spread === undefined ? undefined : { sigma: spread.sigma, runs: spread.runs };

/** The median of each kind the runs gave, else the current figure; the spread likewise (a kept figure keeps its line). */
export function poolTargetCost(
  current: TargetCost | undefined,
  samples: TargetSamples,
): { cost: PooledCost; spreads: PooledSpreads } {
  const pool = (values: readonly number[]) => (values.length > 0 ? poolFigure(values) : undefined);
  const build = pool(samples.buildSeconds);
  const warm = pool(samples.warmBuildSeconds);
  const cache = pool(samples.cacheBytes);
  const image = pool(samples.imageBytes ?? []);
  const setup = pool(samples.setupSeconds ?? []);
  const warmSetup = pool(samples.warmSetupSeconds ?? []);
  const spreads: PooledSpreads = {};
  const buildSpread = build ? toSpread(build) : keepSpread(current?.buildSpread);
  const warmBuildSpread = warm ? toSpread(warm) : keepSpread(current?.warmBuildSpread);
  const cacheSpread = cache ? toSpread(cache) : keepSpread(current?.cacheSpread);
  if (buildSpread) spreads.buildSpread = buildSpread;
  if (warmBuildSpread) spreads.warmBuildSpread = warmBuildSpread;
  if (cacheSpread) spreads.cacheSpread = cacheSpread;
  const imageSpread = image ? toSpread(image) : keepSpread(current?.imageSpread);
  if (imageSpread) spreads.imageSpread = imageSpread;
  const setupSpread = setup ? toSpread(setup) : keepSpread(current?.setupSpread);
  const warmSetupSpread = warmSetup ? toSpread(warmSetup) : keepSpread(current?.warmSetupSpread);
  if (setupSpread) spreads.setupSpread = setupSpread;
  if (warmSetupSpread) spreads.warmSetupSpread = warmSetupSpread;
  return {
    cost: {
      buildSeconds: build?.median ?? current?.buildSeconds,
      warmBuildSeconds: warm?.median ?? current?.warmBuildSeconds,
      cacheBytes: cache ? Math.round(cache.median) : current?.cacheBytes,
      imageBytes: image ? Math.round(image.median) : current?.imageBytes,
      setupSeconds: setup?.median ?? current?.setupSeconds,
      warmSetupSeconds: warmSetup?.median ?? current?.warmSetupSeconds,
    },
    spreads,
  };
}
