import type { Plan } from '../artifacts/index.js';
import { createPlan, type CreatePlanOptions } from './create-plan.js';
import {
  DEFAULT_FORECAST_DRAWS,
  forecastMakespan,
  toFigureSigma,
  toStoredDistribution,
  type CostDistribution,
} from './forecast-makespan.js';
import type { CostInput } from './problem.js';
import { chooseCostDistributions, chooseCosts, type CostFigures, type CostMode } from './choose-costs.js';

// A plan with its forecast. `placeFor: 'p90'` (robust placement) also plans on costs inflated to their 75th and
// 90th percentiles, forecasts every candidate on the same draws (common random numbers), and keeps the one with
// the lowest forecast p90; the median-cost plan is always a candidate, so robust placement never forecasts worse.

export type PlaceFor = 'median' | 'p90';

export interface PlanWithForecastOptions extends Omit<CreatePlanOptions, 'placementCosts'> {
  distributions: ReadonlyMap<string, CostDistribution>;
  policy?: 'fixed' | 'guided';
  draws?: number;
  forecastSeed?: number;
  placeFor?: PlaceFor;
}

const Z75 = 0.6744897501960817;
const Z90 = 1.2815515655446004;

/** Each target's figures at a percentile of its distribution (ln-normal: median·exp(z·sigma)). */
function toPercentileCosts(
  distributions: ReadonlyMap<string, CostDistribution>,
  z: number,
): Map<string, CostInput> {
  return new Map(
    [...distributions].map(([name, d]) => [
      name,
      {
        buildSeconds: d.buildSeconds * Math.exp(z * toFigureSigma(d.buildSigma, d.buildRuns)),
        cacheBytes: d.cacheBytes * Math.exp(z * toFigureSigma(d.cacheSigma, d.cacheRuns)),
        setupSeconds:
          (d.setupSeconds ?? 0) * Math.exp(z * toFigureSigma(d.setupSigma ?? 0, d.setupRuns ?? 1)),
      },
    ]),
  );
}

export function planWithForecast(options: PlanWithForecastOptions): Plan {
  const { distributions, policy = 'fixed', draws = DEFAULT_FORECAST_DRAWS, placeFor = 'median' } = options;
  const seed = options.forecastSeed ?? 1;
  const forecastOf = (plan: Plan) => forecastMakespan({ plan, distributions, policy, draws, seed });
  const median = createPlan(options);
  const candidates = [{ plan: median, forecast: forecastOf(median) }];
  if (placeFor === 'p90')
    for (const z of [Z75, Z90]) {
      const plan = createPlan({ ...options, placementCosts: toPercentileCosts(distributions, z) });
      candidates.push({ plan, forecast: forecastOf(plan) });
    }
  const best = candidates.reduce((a, b) =>
    b.forecast.makespan.p90 < a.forecast.makespan.p90 - 1e-9 ? b : a,
  );
  const usedDistributions = Object.fromEntries(
    Object.keys(best.plan.targets)
      .sort()
      .map((name) => [name, toStoredDistribution(distributions.get(name)!)]),
  );
  return {
    ...best.plan,
    forecast: { ...best.forecast, placedFor: placeFor, distributions: usedDistributions },
  };
}

export interface PlanFromFiguresOptions extends Omit<
  PlanWithForecastOptions,
  'costs' | 'costSet' | 'distributions'
> {
  /** The target costs as read (.builders/target-costs): medians, spreads and setup. */
  figures: ReadonlyMap<string, CostFigures>;
  mode: CostMode;
  /** False: plan only (bench runs one target at a time, so a makespan forecast says nothing about it). */
  forecast?: boolean;
}

/** What `plan` and the harnesses do: pick the figures of a mode, place, and forecast from their distributions. */
export function planFromFigures({
  figures,
  mode,
  forecast = true,
  ...options
}: PlanFromFiguresOptions): Plan {
  const costSet = chooseCosts(figures, mode);
  const base = { ...options, costs: costSet.costs, costSet };
  if (!forecast) return createPlan(base);
  return planWithForecast({ ...base, distributions: chooseCostDistributions(figures, mode) });
}
