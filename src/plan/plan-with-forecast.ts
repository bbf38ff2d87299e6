import type { Plan } from '../artifacts/index.js';
import { createPlan, type CreatePlanOptions } from './create-plan.js';
import {
  DEFAULT_FORECAST_DRAWS,
  describeForecastHistory,
  forecastMakespan,
  toFigureSigma,
  toStoredDistribution,
  type CostDistribution,
} from './forecast-makespan.js';
import type { CostInput } from './problem.js';
import { chooseCostDistributions, chooseCosts, type CostFigures, type CostMode } from './choose-costs.js';

// A plan with its forecast. `placeFor: 'p90'` (robust placement) also plans on costs inflated to their 75th and
// 90th percentiles, forecasts every candidate on the same draws (common random numbers: the same seed and as many
// draws as the median plan's forecast settled on), and keeps the one with the lowest forecast p90; the median-cost
// plan is always a candidate, so robust placement never forecasts worse. Only what is shown is drawn: with too
// little history for a band (fewer than 3 runs behind some figure) nothing is drawn, plan.json's forecast says
// why, and a p90 placement, which needs the band, is not attempted (`describePlaceForSkipped` says so).

export type PlaceFor = 'median' | 'p90';

interface PlanWithForecastOptions extends Omit<CreatePlanOptions, 'placementCosts'> {
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

function toStoredDistributions(plan: Plan, distributions: ReadonlyMap<string, CostDistribution>) {
  return Object.fromEntries(
    Object.keys(plan.targets)
      .sort()
      .map((name) => [name, toStoredDistribution(distributions.get(name)!)]),
  );
}

/** @internal */
export function planWithForecast(options: PlanWithForecastOptions): Plan {
  const { distributions, policy = 'fixed', draws = DEFAULT_FORECAST_DRAWS, placeFor = 'median' } = options;
  const seed = options.forecastSeed ?? 1;
  const median = createPlan(options);
  const history = describeForecastHistory(median, distributions);
  if (history.thinTargets.length > 0)
    return {
      ...median,
      forecast: {
        banded: false,
        draws: 0,
        seed,
        policy,
        ...history,
        conditionedAtSeconds: null,
        placedFor: 'median',
        distributions: toStoredDistributions(median, distributions),
      },
    };
  const forecastOf = (plan: Plan, minDraws?: number) =>
    forecastMakespan({
      plan,
      distributions,
      policy,
      draws: minDraws ?? draws,
      minDraws,
      seed,
      floorSeconds: plan.lowerBoundSeconds,
    });
  const candidates = [{ plan: median, forecast: forecastOf(median) }];
  if (placeFor === 'p90')
    for (const z of [Z75, Z90]) {
      const plan = createPlan({ ...options, placementCosts: toPercentileCosts(distributions, z) });
      candidates.push({ plan, forecast: forecastOf(plan, candidates[0]!.forecast.draws) });
    }
  const best = candidates.reduce((a, b) =>
    b.forecast.makespan.p90 < a.forecast.makespan.p90 - 1e-9 ? b : a,
  );
  return {
    ...best.plan,
    forecast: {
      ...best.forecast,
      banded: true,
      placedFor: placeFor,
      distributions: toStoredDistributions(best.plan, distributions),
    },
  };
}

/** Why `--place-for p90` left the plan placed for the median (no band to place for); undefined when it applied. */
export function describePlaceForSkipped(plan: Plan, placeFor: PlaceFor | undefined): string | undefined {
  const forecast = plan.forecast;
  if (placeFor !== 'p90' || !forecast || forecast.banded) return undefined;
  const count = Object.keys(plan.targets).length;
  return `--place-for p90 did not apply: it places for the forecast band, and there is none yet (${forecast.thinTargets.length} of ${count} targets have fewer than 3 runs of history, fewest ${forecast.historyRuns}); the plan is placed for the median costs`;
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
