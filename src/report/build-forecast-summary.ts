import { type PlanForecastInput } from '../run-dir/index.js';
import type { ForecastSummary, PlanForecast, RunFile, TargetSummary } from '../artifacts/index.js';
import { findForecastPercentile, forecastMakespan, type ForecastProgress } from '../plan/index.js';
import { round } from './build-targets.js';

// The plan's forecast against the run: the planned band; while running, the band again conditioned on what has
// finished and what is running; once completed, the percentile the makespan landed at and, far outside the band
// (past p99 or under p1), the targets that put it there.

/** Draws of a live forecast: a page view or a TTY redraw waits on it. */
const LIVE_FORECAST_DRAWS = 400;
const FAR_ABOVE = 99;
const FAR_BELOW = 1;

export interface BuildForecastSummaryOptions {
  plan: { forecast?: PlanForecastInput | undefined } | undefined;
  run: RunFile | undefined;
  targets: readonly TargetSummary[];
  makespanSeconds: number | null;
  /** Now, for a live forecast. */
  generatedAtMs: number;
}

/** run.json's targets as seconds from the measured start: what a live forecast is conditioned on. @internal */
export function toForecastProgress(run: RunFile, nowMs: number): ForecastProgress | undefined {
  const outcomes = Object.entries(run.targets).flatMap(([name, outcome]) =>
    'startedAtMs' in outcome ? [{ name, outcome }] : [],
  );
  const origin = run.measuredStartedAtMs ?? Math.min(...outcomes.map((o) => o.outcome.startedAtMs));
  if (!Number.isFinite(origin)) return undefined;
  const seconds = (ms: number) => Math.max(0, (ms - origin) / 1000);
  const targets: ForecastProgress['targets'] = Object.fromEntries(
    outcomes.map(({ name, outcome }) => [
      name,
      {
        node: outcome.node,
        startSeconds: seconds(outcome.startedAtMs),
        finishSeconds: 'finishedAtMs' in outcome ? seconds(outcome.finishedAtMs) : undefined,
      },
    ]),
  );
  return { nowSeconds: seconds(nowMs), targets };
}

type ForecastBand = { p10: number; p50: number; p90: number };

function roundBand<T extends { p10: number; p50: number; p90: number }>(band: T): T {
  return { ...band, p10: round(band.p10), p50: round(band.p50), p90: round(band.p90) };
}

function findCulprits(
  forecast: Extract<PlanForecast, { banded: true }>,
  targets: readonly TargetSummary[],
  side: 'above' | 'below',
): NonNullable<ForecastSummary>['culprits'] {
  return targets
    .flatMap((t) => {
      const band = forecast.targets[t.target]?.duration;
      if (!band || t.totalSeconds === null) return [];
      const excess = side === 'above' ? t.totalSeconds - band.p90 : band.p10 - t.totalSeconds;
      return excess > 0 ? [{ t, band, excess }] : [];
    })
    .sort((a, b) => Number(b.t.onCriticalPath) - Number(a.t.onCriticalPath) || b.excess - a.excess)
    .map(({ t, band }) => ({
      target: t.target,
      node: t.node,
      seconds: round(t.totalSeconds ?? 0),
      bandSeconds: roundBand(band),
      onCriticalPath: t.onCriticalPath,
    }));
}

function forecastLive(
  { forecast, dispatchPlan }: PlanForecastInput,
  run: RunFile,
  nowMs: number,
): NonNullable<ForecastSummary>['live'] {
  const progress = toForecastProgress(run, nowMs);
  if (!progress) return null;
  const live = forecastMakespan({
    plan: dispatchPlan,
    distributions: new Map(Object.entries(forecast.distributions)),
    policy: run.dispatch ?? forecast.policy,
    draws: LIVE_FORECAST_DRAWS,
    seed: forecast.seed,
    progress,
  });
  return { ...roundBand(live.makespan), atSeconds: round(progress.nowSeconds) };
}

export function buildForecastSummary(options: BuildForecastSummaryOptions): ForecastSummary {
  const { plan, run, targets, makespanSeconds } = options;
  const input = plan?.forecast;
  if (!input) return null;
  const { forecast } = input;
  const about = (planned: ForecastBand | null, draws: number) => ({
    planned,
    banded: forecast.banded,
    historyRuns: forecast.historyRuns,
    thinTargets: [...forecast.thinTargets],
    draws,
    policy: forecast.policy,
    placedFor: forecast.placedFor,
  });
  // No band shown, none drawn: no figures, no percentile, nothing outside (a plan made before issue 36 may still
  // carry figures drawn from too little history; they are not read).
  if (!forecast.banded)
    return {
      ...about(null, 0),
      live: null,
      percentile: null,
      outside: null,
      culprits: [],
      targets: [],
    };
  const completed = run?.status === 'completed' && makespanSeconds !== null;
  const percentile = completed ? round(findForecastPercentile(forecast.quantiles, makespanSeconds), 1) : null;
  const outside =
    percentile === null ? null : percentile >= FAR_ABOVE ? 'above' : percentile <= FAR_BELOW ? 'below' : null;
  const side = percentile === null ? null : percentile > 90 ? 'above' : percentile < 10 ? 'below' : null;
  return {
    ...about(roundBand(forecast.makespan), forecast.draws),
    live: run?.status === 'running' ? forecastLive(input, run, options.generatedAtMs) : null,
    percentile,
    outside,
    culprits: side ? findCulprits(forecast, targets, side) : [],
    targets: Object.entries(forecast.targets)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([target, t]) => ({ target, finish: roundBand(t.finish) })),
  };
}

/** A note for a run far outside its band, naming the targets that put it there. */
export function describeForecastMiss(forecast: ForecastSummary): string | undefined {
  if (!forecast?.outside || forecast.percentile === null || !forecast.planned) return undefined;
  const names = forecast.culprits
    .slice(0, 3)
    .map(
      (c) =>
        `${c.target} ${c.seconds} s against ${c.bandSeconds.p10}–${c.bandSeconds.p90} s${c.onCriticalPath ? ' (critical path)' : ''}`,
    );
  const where = forecast.outside === 'above' ? 'past the p99' : 'under the p1';
  return `the makespan landed ${where} of its forecast (percentile ${forecast.percentile}; band p10–p90 ${forecast.planned.p10}–${forecast.planned.p90} s)${names.length > 0 ? `: ${names.join('; ')}` : ''}`;
}
