// The robust-placement comparison of `npm run bench:plan`: plans placed for the median-cost makespan against plans
// placed for the forecast p90 (`--place-for p90`), on instances whose targets carry known, unequal noise (each
// target's sigma of ln drawn from 0.05–0.6, as if measured over 20 runs). Each plan's p90 is then measured on fresh
// draws (another seed than the one robust placement chose with, so its choice is not graded on its own draws).
import { forecastMakespan, type CostDistribution } from '../src/plan/index.js';
import { planWithForecast } from '../src/plan/plan-with-forecast.js';
import { type CostInput, type PlanGraph } from '../src/plan/problem.js';
import { type PlanNode } from '../src/plan/cost-model.js';
import { createRandom } from '../src/shared/random.js';

export interface RobustCase {
  graph: PlanGraph;
  costs: ReadonlyMap<string, CostInput>;
  nodes: readonly PlanNode[];
}

export interface RobustComparison {
  cases: number;
  /** p90 of the p90-placed plan ÷ p90 of the median-placed plan, per case, on fresh draws. */
  ratios: number[];
  /** Cases where robust placement kept the median plan (the ratio is then 1 by construction). */
  keptMedian: number;
}

/** Known noise per target: sigma of ln in [0.05, 0.6], seeded. */
export function toNoisyDistributions(
  costs: ReadonlyMap<string, CostInput>,
  seed: number,
): Map<string, CostDistribution> {
  const random = createRandom(seed);
  return new Map(
    [...costs].map(([name, cost]) => [
      name,
      {
        buildSeconds: cost.buildSeconds ?? 0,
        buildSigma: 0.05 + random.next() * 0.55,
        buildRuns: 20,
        cacheBytes: cost.cacheBytes ?? 0,
        cacheSigma: 0.05 + random.next() * 0.3,
        cacheRuns: 20,
      },
    ]),
  );
}

export function compareRobust(
  cases: readonly RobustCase[],
  { seed, draws }: { seed: number; draws: number },
): RobustComparison {
  const ratios: number[] = [];
  let keptMedian = 0;
  cases.forEach((item, k) => {
    const distributions = toNoisyDistributions(item.costs, seed + k);
    const base = { ...item, arch: 'x', createdAt: '2026-01-01T00:00:00.000Z', distributions, draws };
    const median = planWithForecast({ ...base, placeFor: 'median' });
    const robust = planWithForecast({ ...base, placeFor: 'p90' });
    const fresh = (plan: typeof median) =>
      forecastMakespan({ plan, distributions, draws: 4 * draws, seed: seed + 99_991 + k }).makespan.p90;
    const same = JSON.stringify(median.queues) === JSON.stringify(robust.queues);
    if (same) keptMedian += 1;
    ratios.push(same ? 1 : fresh(robust) / fresh(median));
  });
  return { cases: cases.length, ratios, keptMedian };
}

export function printRobust(title: string, result: RobustComparison): void {
  const sorted = [...result.ratios].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))] ?? NaN;
  const better = result.ratios.filter((r) => r < 1 - 1e-9).length;
  const worse = result.ratios.filter((r) => r > 1 + 1e-9).length;
  console.log(`\n${title}`);
  console.log(
    `p90 makespan, p90-placed ÷ median-placed (fresh draws): median ${at(0.5).toFixed(4)}, p10 ${at(0.1).toFixed(4)}, p90 ${at(0.9).toFixed(4)}, best ${at(0).toFixed(4)}, worst ${at(1).toFixed(4)}`,
  );
  console.log(
    `${result.cases} instances: robust placement lowered the p90 in ${better}, raised it in ${worse} (fresh draws), kept the median plan in ${result.keptMedian}`,
  );
}
