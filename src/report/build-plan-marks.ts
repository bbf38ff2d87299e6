import type { DataFile } from '../artifacts/index.js';
import { formatDuration } from '../shared/format-units.js';

// The time extent the chart's axis spans, and the plan's vertical marks on the Gantt (planned makespan, lower
// bound). Two marks closer than MERGED_MARK_SHARE of the axis would print their labels over each other, so the
// planned line carries one label for both and the lower bound's line none (one line when they are equal).

/** A 10px label of ~20 characters is ~110px, about 12% of a ~900px plot. */
const MERGED_MARK_SHARE = 0.12;

export interface TimeExtent {
  startMs: number;
  endMs: number;
  /** endMs − startMs, at least 1 s. */
  spanMs: number;
}

/** From the run's origin to the latest of: the measured end, the plan's makespan and lower bound, any planned bar. */
export function buildTimeExtent(model: DataFile): TimeExtent {
  const { originMs } = model.timeline;
  const band = toForecastBand(model);
  const planEnd =
    Math.max(
      model.summary.plannedMakespanSeconds ?? 0,
      model.summary.lowerBoundSeconds ?? 0,
      band?.p90 ?? 0,
    ) * 1000;
  const endMs = Math.max(
    model.timeline.endMs,
    originMs + planEnd,
    ...model.timeline.planned.map((p) => p.endMs),
  );
  return { startMs: originMs, endMs, spanMs: Math.max(endMs - originMs, 1000) };
}

export interface PlanMark {
  xAxis: number;
  name: string;
  label?: { show: false };
}

export function buildPlanMarks(model: DataFile): PlanMark[] {
  const { plannedMakespanSeconds: planned, lowerBoundSeconds: bound } = model.summary;
  const at = (seconds: number): number => model.timeline.originMs + seconds * 1000;
  const plannedMark =
    planned === null ? [] : [{ xAxis: at(planned), name: `planned makespan ${formatDuration(planned)}` }];
  const boundMark =
    bound === null ? [] : [{ xAxis: at(bound), name: `lower bound ${formatDuration(bound)}` }];
  if (planned === null || bound === null) return [...plannedMark, ...boundMark];
  if (Math.abs(planned - bound) * 1000 > buildTimeExtent(model).spanMs * MERGED_MARK_SHARE)
    return [...plannedMark, ...boundMark];
  const same = formatDuration(planned) === formatDuration(bound);
  const name = same
    ? `planned makespan = lower bound ${formatDuration(bound)}`
    : `planned makespan ${formatDuration(planned)} · lower bound ${formatDuration(bound)}`;
  const merged = { xAxis: at(planned), name };
  return planned === bound ? [merged] : [merged, { ...boundMark[0]!, label: { show: false } }];
}

/** The band the chart shades: the live one while running, else the planned one; none without a banded forecast. */
function toForecastBand(
  model: DataFile,
): { p10: number; p50: number; p90: number; live: boolean } | undefined {
  const forecast = model.summary.forecast;
  if (!forecast?.banded || !forecast.planned) return undefined;
  return forecast.live ? { ...forecast.live, live: true } : { ...forecast.planned, live: false };
}

export type ForecastArea = [{ xAxis: number; name: string }, { xAxis: number }];

/** The forecast's p10–p90 makespan band as a shaded stretch of the time axis, labelled with its p50. */
export function buildForecastArea(model: DataFile): ForecastArea[] {
  const band = toForecastBand(model);
  if (!band) return [];
  const at = (seconds: number): number => model.timeline.originMs + seconds * 1000;
  const name = `${band.live ? 'forecast now' : 'forecast'} p10–p90 ${formatDuration(band.p10)}–${formatDuration(band.p90)} (p50 ${formatDuration(band.p50)})`;
  return [[{ xAxis: at(band.p10), name }, { xAxis: at(band.p90) }]];
}
