import { DEFAULT_LANE, type DataFile } from '../artifacts/index.js';

// Many runs' data.json summaries → trends per harness: the makespan and, per target, build seconds and upload
// bytes, run by run in stamp order, each point compared with the median of the same harness's previous runs.
// Harnesses are never mixed (the spec: do not quote a number from one harness as if it came from another), nor are
// lanes (a run recorded elsewhere, e.g. the nightly on AWS, is a lane of its own).
// The rule is in docs/trends.md. Pure.

const TRENDS_VERSION = 2;

export interface TrendRule {
  /** How many previous runs (of the same harness, with a value) the baseline median is taken over. */
  window: number;
  /** No flag until at least this many previous values exist. */
  minBaseline: number;
  /** Worse than the baseline by more than this percentage … */
  pct: number;
  /** … and by more than this many seconds (seconds metrics) … */
  seconds: number;
  /** … or this many bytes (byte metrics). */
  bytes: number;
}

/** @internal */
export const DEFAULT_TREND_RULE: TrendRule = {
  window: 5,
  minBaseline: 3,
  pct: 10,
  seconds: 30,
  bytes: 100_000_000,
};

/** The part of data.json trends read. */
export interface TrendRun {
  stamp: string;
  harness: string;
  /** Where the run was recorded; trends never mix lanes, as they never mix harnesses. */
  lane: string;
  status: string;
  makespanSeconds: number | null;
  targets: readonly {
    target: string;
    status: string;
    startMs: number | null;
    endMs: number | null;
    buildSeconds: number | null;
    uploadBytes: number | null;
  }[];
  /** data.json `summary.forecast`, the part calibration reads; null when the plan made no forecast. */
  forecast: {
    banded: boolean;
    percentile: number | null;
    outside: 'above' | 'below' | null;
    culprits: readonly { target: string }[];
  } | null;
}

/** How well the forecasts of one harness's runs held: how often the makespan came in under the p90 (goal 85–95 %). */
interface Calibration {
  /** Completed runs with a banded forecast and a percentile. */
  runs: number;
  underP90: number;
  /** underP90 / runs; null without runs. */
  share: number | null;
  verdict: 'calibrated' | 'band too narrow' | 'band too wide' | 'too few runs';
  points: { stamp: string; percentile: number; outside: 'above' | 'below' | null }[];
  /** Runs far outside their band (past p99 or under p1), with the targets that put them there. */
  flagged: { stamp: string; outside: 'above' | 'below'; culprits: string[] }[];
}

/** The calibration goal, and the fewest runs a verdict needs. */
export const CALIBRATION_GOAL = { low: 0.85, high: 0.95, minRuns: 10 } as const;

export interface TrendPoint {
  stamp: string;
  value: number | null;
  /** Median of up to `window` previous values; null until `minBaseline` of them exist. */
  baseline: number | null;
  regression: boolean;
}

export type TrendUnit = 'seconds' | 'bytes';

export interface MetricTrend {
  unit: TrendUnit;
  points: TrendPoint[];
}

interface TargetTrend {
  target: string;
  buildSeconds: MetricTrend;
  uploadBytes: MetricTrend;
}

export interface Regression {
  stamp: string;
  /** `makespan`, or a target name. */
  subject: string;
  metric: 'makespanSeconds' | 'buildSeconds' | 'uploadBytes';
  unit: TrendUnit;
  value: number;
  baseline: number;
}

export interface HarnessTrend {
  harness: string;
  lane: string;
  /** Runs in the trend, oldest first; runs left out are in `excluded` with the reason. */
  stamps: string[];
  excluded: { stamp: string; reason: string }[];
  makespanSeconds: MetricTrend;
  targets: TargetTrend[];
  regressions: Regression[];
  calibration: Calibration;
}

export interface Trends {
  version: typeof TRENDS_VERSION;
  rule: TrendRule;
  harnesses: HarnessTrend[];
}

const HARNESS_ORDER = ['cold', 'warm', 'bench', 'unknown'];

/**
 * A run's trend figures; a figure the run's checks marked partial (a changed or foreign file) is left out (null),
 * so a trend never plots a number from a flagged file.
 */
export function toTrendRun(model: Pick<DataFile, 'run' | 'summary'>): TrendRun {
  const { summary } = model;
  return {
    stamp: model.run.stamp,
    harness: model.run.harness,
    lane: model.run.lane,
    status: model.run.status,
    makespanSeconds: summary.partial.length > 0 ? null : summary.makespanSeconds,
    targets: summary.targets.map((t) =>
      t.partial.length > 0 ? { ...t, buildSeconds: null, uploadBytes: null } : t,
    ),
    forecast: summary.partial.length > 0 ? null : summary.forecast,
  };
}

/** @internal */
export function buildCalibration(runs: readonly TrendRun[]): Calibration {
  const counted = runs.filter(
    (r): r is TrendRun & { forecast: { percentile: number } } =>
      r.status === 'completed' && r.forecast?.banded === true && r.forecast.percentile !== null,
  );
  const points = counted.map((r) => ({
    stamp: r.stamp,
    percentile: r.forecast.percentile,
    outside: r.forecast.outside,
  }));
  const underP90 = points.filter((p) => p.percentile <= 90).length;
  const share = points.length === 0 ? null : underP90 / points.length;
  const verdict =
    share === null || points.length < CALIBRATION_GOAL.minRuns
      ? 'too few runs'
      : share < CALIBRATION_GOAL.low
        ? 'band too narrow'
        : share > CALIBRATION_GOAL.high
          ? 'band too wide'
          : 'calibrated';
  // Flagged runs are a subset of the counted ones: a run without a band (or not completed) is never outside it,
  // even if an older data.json says so.
  const flagged = counted.flatMap((r) =>
    r.forecast.outside
      ? [{ stamp: r.stamp, outside: r.forecast.outside, culprits: r.forecast.culprits.map((c) => c.target) }]
      : [],
  );
  return { runs: points.length, underP90, share, verdict, points, flagged };
}

/** @internal */
export function toMedian(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Worse than the baseline by more than `pct` percent AND by more than the absolute floor of its unit. @internal */
export function isRegression({
  value,
  baseline,
  unit,
  rule,
}: {
  value: number;
  baseline: number;
  unit: TrendUnit;
  rule: TrendRule;
}): boolean {
  const floor = unit === 'seconds' ? rule.seconds : rule.bytes;
  return value - baseline > floor && value > baseline * (1 + rule.pct / 100);
}

/** @internal */
export function buildMetricTrend({
  stamps,
  values,
  unit,
  rule,
}: {
  stamps: readonly string[];
  values: readonly (number | null)[];
  unit: TrendUnit;
  rule: TrendRule;
}): MetricTrend {
  const seen: number[] = [];
  const points = stamps.map((stamp, i): TrendPoint => {
    const value = values[i] ?? null;
    const previous = seen.slice(-rule.window);
    const baseline = previous.length >= rule.minBaseline ? toMedian(previous) : null;
    if (value !== null) seen.push(value);
    return {
      stamp,
      value,
      baseline,
      regression: value !== null && baseline !== null && isRegression({ value, baseline, unit, rule }),
    };
  });
  return { unit, points };
}

/** Why a run is left out of its harness's trend, or undefined when it counts. */
function findExclusion(run: TrendRun): string | undefined {
  if (run.status === 'running') return 'still running: its figures are partial';
  if (run.status === 'failed' || run.status === 'interrupted')
    return `${run.status}: its makespan is not comparable (finished targets still count)`;
  return undefined;
}

function isMeasured(t: TrendRun['targets'][number]): boolean {
  return (t.status === 'ok' || t.status === 'unknown') && t.startMs !== null && t.endMs !== null;
}

function collectRegressions(subject: string, metric: Regression['metric'], trend: MetricTrend): Regression[] {
  return trend.points.flatMap((p) =>
    p.regression
      ? [{ stamp: p.stamp, subject, metric, unit: trend.unit, value: p.value!, baseline: p.baseline! }]
      : [],
  );
}

function buildHarnessTrend(
  { harness, lane }: { harness: string; lane: string },
  runs: readonly TrendRun[],
  rule: TrendRule,
): HarnessTrend {
  const sorted = [...runs].sort((a, b) => a.stamp.localeCompare(b.stamp));
  const excluded = sorted.flatMap((r) =>
    findExclusion(r) ? [{ stamp: r.stamp, reason: findExclusion(r)! }] : [],
  );
  const counted = sorted.filter((r) => r.status !== 'running');
  const stamps = counted.map((r) => r.stamp);
  const makespanSeconds = buildMetricTrend({
    stamps,
    values: counted.map((r) => (findExclusion(r) ? null : r.makespanSeconds)),
    unit: 'seconds',
    rule,
  });
  const names = [
    ...new Set(counted.flatMap((r) => r.targets.filter(isMeasured).map((t) => t.target))),
  ].sort();
  const targets = names.map((target): TargetTrend => {
    const rows = counted.map((r) => r.targets.find((t) => t.target === target && isMeasured(t)));
    return {
      target,
      buildSeconds: buildMetricTrend({
        stamps,
        values: rows.map((t) => t?.buildSeconds ?? null),
        unit: 'seconds',
        rule,
      }),
      uploadBytes: buildMetricTrend({
        stamps,
        values: rows.map((t) => t?.uploadBytes ?? null),
        unit: 'bytes',
        rule,
      }),
    };
  });
  const regressions = [
    ...collectRegressions('makespan', 'makespanSeconds', makespanSeconds),
    ...targets.flatMap((t) => [
      ...collectRegressions(t.target, 'buildSeconds', t.buildSeconds),
      ...collectRegressions(t.target, 'uploadBytes', t.uploadBytes),
    ]),
  ].sort((a, b) => b.stamp.localeCompare(a.stamp) || a.subject.localeCompare(b.subject));
  const calibration = buildCalibration(sorted);
  return { harness, lane, stamps, excluded, makespanSeconds, targets, regressions, calibration };
}

export function buildTrends({
  runs,
  rule = DEFAULT_TREND_RULE,
}: {
  runs: readonly TrendRun[];
  rule?: TrendRule;
}): Trends {
  const order = (harness: string) => HARNESS_ORDER.indexOf(harness) + 1 || 99;
  const groups = [
    ...new Map(
      runs.map((r) => [`${r.lane}\u0000${r.harness}`, { lane: r.lane, harness: r.harness }]),
    ).values(),
  ].sort(
    (a, b) =>
      Number(b.lane === DEFAULT_LANE) - Number(a.lane === DEFAULT_LANE) ||
      a.lane.localeCompare(b.lane) ||
      order(a.harness) - order(b.harness) ||
      a.harness.localeCompare(b.harness),
  );
  return {
    version: TRENDS_VERSION,
    rule,
    harnesses: groups.map((group) =>
      buildHarnessTrend(
        group,
        runs.filter((r) => r.harness === group.harness && r.lane === group.lane),
        rule,
      ),
    ),
  };
}
