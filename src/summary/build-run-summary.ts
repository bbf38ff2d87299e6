import type { DataFile, ForecastSummary, TargetSummary } from '../artifacts/index.js';
import { renderWhySentence } from '../report/render-why.js';
import { listLoudWarningLines } from '../report/build-partial-run-error.js';
import { toShownDifference } from '../shared/format-units.js';

// The end-of-run summary of cold, warm and bench (docs/summary.md): what a person at the terminal (or a CI job's
// summary page) needs from the finished run, taken from the data.json model `report` just wrote, never recomputed.
// Pure: the renderers (text, markdown) turn it into words; nothing here reads a file, the clock or process.env.

export type RunStatus = DataFile['run']['status'];

/** `the run was interrupted`, `the run failed`: how a run that did not complete ended, in words. */
export function describeEnding(status: RunStatus): string {
  if (status === 'running') return 'the run is still running';
  if (status === 'failed') return 'the run failed';
  return `the run was ${status}`;
}

interface SummaryMakespan {
  measuredSeconds: number | null;
  plannedSeconds: number | null;
  lowerBoundSeconds: number | null;
  /** measured − planned and measured − lower bound, each from the figures as shown, so they add up to the digit. */
  overPlanSeconds: number | null;
  overBoundSeconds: number | null;
  /** Trace files whose damage leaves the makespan and the critical path partial (data.json `summary.partial`). */
  partialFiles: string[];
}

export type SummaryForecast =
  | {
      kind: 'landed';
      p10: number;
      p50: number;
      p90: number;
      percentile: number;
      outside: 'above' | 'below' | null;
      culprits: string[];
    }
  | { kind: 'no-percentile'; p10: number; p50: number; p90: number; reason: string }
  | { kind: 'no-band'; reason: string };

interface SummaryPathStep {
  target: string;
  node: string;
}

interface SummaryCriticalPath {
  measured: SummaryPathStep[];
  measuredSeconds: number | null;
  planned: string[];
  /** Whether the run had a plan.json (an empty planned path then means the plan recorded none). */
  hasPlan: boolean;
}

export type SummaryOverrun =
  | {
      kind: 'overrun';
      target: string;
      node: string;
      plannedNode: string | null;
      actualSeconds: number;
      plannedSeconds: number;
      overSeconds: number;
      /** The `why` sentence (docs/explain.md), or what is missing for one. */
      cause: { known: true; text: string } | { known: false; missing: string };
    }
  | { kind: 'none'; reason: string };

export interface RunSummary {
  stamp: string;
  harness: DataFile['run']['harness'];
  lane: string;
  status: RunStatus;
  exitCode: number | null;
  /** Targets that finished ok, out of all in the run. */
  finishedTargets: number;
  totalTargets: number;
  /** Targets that did not finish ok, with their status (failed, interrupted, skipped, …). */
  unfinished: { target: string; status: string }[];
  makespan: SummaryMakespan;
  forecast: SummaryForecast;
  criticalPath: SummaryCriticalPath;
  overrun: SummaryOverrun;
  /** The report's loud warning lines (`WARNING: …`), as `report` prints them. */
  warnings: string[];
  /** How many quieter notes the report holds besides. */
  noteCount: number;
  /** False when the report failed: there is no report.md or page to open (`rocm-perf report DIR` retries). */
  reportWritten: boolean;
  runDir: string;
  reportPath: string;
  pagePath: string;
  serveUrl: string;
  serveCommand: string;
}

/** The run the summary is of when its report could not be made: what run.json says. */
interface SummaryFallback {
  stamp: string;
  harness: DataFile['run']['harness'];
  status: RunStatus;
  exitCode: number | null;
  warnings: readonly string[];
}

export interface BuildRunSummaryOptions {
  /** The data.json model `report` built for the finished run; undefined when the report failed. */
  model: DataFile | undefined;
  /** run.json's view, used when there is no model (and for the exit code). */
  run: SummaryFallback;
  runDir: string;
  /** The run's page on `rocm-perf serve` (formatServeRunUrl) and the command that serves it. */
  serve: { url: string; command: string };
  /** path.join, passed in so the builder stays free of node:path's platform. */
  joinPath: (dir: string, name: string) => string;
}

function buildMakespan(summary: DataFile['summary']): SummaryMakespan {
  const { makespanSeconds: measured, plannedMakespanSeconds: planned, lowerBoundSeconds: bound } = summary;
  return {
    measuredSeconds: measured,
    plannedSeconds: planned,
    lowerBoundSeconds: bound,
    overPlanSeconds: measured === null || planned === null ? null : toShownDifference(measured, planned),
    overBoundSeconds: measured === null || bound === null ? null : toShownDifference(measured, bound),
    partialFiles: [...summary.partial],
  };
}

function describeNoBand(forecast: NonNullable<ForecastSummary>): string {
  const { thinTargets, historyRuns } = forecast;
  const shown = thinTargets.slice(0, 6).join(', ');
  return `${thinTargets.length} target${thinTargets.length === 1 ? '' : 's'} had fewer than 3 runs of history (fewest ${historyRuns}): ${shown}${thinTargets.length > 6 ? ', …' : ''}; \`rocm-perf costs --from RUN\` over 3+ runs adds the spread`;
}

function buildForecast(model: DataFile): SummaryForecast {
  const forecast = model.summary.forecast;
  if (!forecast) return { kind: 'no-band', reason: 'the plan made no forecast (plan.json has none)' };
  if (!forecast.banded || !forecast.planned) return { kind: 'no-band', reason: describeNoBand(forecast) };
  const band = forecast.planned;
  if (forecast.percentile === null) {
    const status = model.run.status;
    const reason =
      status === 'completed'
        ? 'the run has no measured makespan to place in the band'
        : `${describeEnding(status)}: a partial makespan is not placed in the band`;
    return { kind: 'no-percentile', ...pickBand(band), reason };
  }
  return {
    kind: 'landed',
    ...pickBand(band),
    percentile: forecast.percentile,
    outside: forecast.outside,
    culprits: forecast.culprits.map((c) => c.target),
  };
}

const pickBand = ({ p10, p50, p90 }: { p10: number; p50: number; p90: number }) => ({ p10, p50, p90 });

function buildCriticalPath(model: DataFile): SummaryCriticalPath {
  const { summary } = model;
  const nodeOf = new Map(summary.targets.map((t) => [t.target, t.node]));
  return {
    measured: summary.criticalPath.measured.map((target) => ({
      target,
      node: nodeOf.get(target) ?? 'unknown',
    })),
    measuredSeconds: summary.criticalPath.measuredSeconds,
    planned: [...summary.criticalPath.planned],
    hasPlan: model.run.hasPlanFile,
  };
}

type Compared = TargetSummary & { totalSeconds: number; plannedSeconds: number; overSeconds: number };

/**
 * Each target that finished ok (a cancelled or failed record is partial) with a planned slot: its record against its
 * planned duration (build + export +
 * setup, plan.json's finish − start), the comparison the report's plan note makes; the difference from the figures
 * as shown, so `actual = planned + over` adds up as printed.
 */
function compareWithPlan(targets: readonly TargetSummary[]): Compared[] {
  return targets.flatMap((t) => {
    if (t.status !== 'ok' || t.totalSeconds === null) return [];
    if (t.plannedStartSeconds === null || t.plannedFinishSeconds === null) return [];
    const plannedSeconds = t.plannedFinishSeconds - t.plannedStartSeconds;
    return [
      {
        ...t,
        totalSeconds: t.totalSeconds,
        plannedSeconds,
        overSeconds: toShownDifference(t.totalSeconds, plannedSeconds),
      },
    ];
  });
}

/** Why the target ran what it ran, or what is missing to say. */
function describeCause(
  model: DataFile,
  t: TargetSummary,
): { known: true; text: string } | { known: false; missing: string } {
  if (model.run.harness === 'cold')
    return {
      known: false,
      missing: 'a cold run misses every step by design, so it is not explained (docs/explain.md)',
    };
  if (t.why === null)
    return {
      known: false,
      missing: `data.json has no \`why\` for ${t.target} (the run was not explained: see the report's notes)`,
    };
  if (t.why.firstMiss === null)
    return {
      known: false,
      missing: `every step of ${t.target} came from the cache: the overrun is not a cache miss (its upload and setup/export are in report.md)`,
    };
  const sentence = renderWhySentence(t);
  return sentence === undefined
    ? { known: false, missing: `the first uncached step of ${t.target} has no recorded cause` }
    : { known: true, text: sentence };
}

function buildOverrun(model: DataFile): SummaryOverrun {
  const compared = compareWithPlan(model.summary.targets);
  if (compared.length === 0)
    return {
      kind: 'none',
      reason: model.run.hasPlanFile
        ? 'no target finished ok with a planned slot to compare with'
        : 'no plan.json: nothing to compare with',
    };
  const worst = [...compared].sort(
    (a, b) => b.overSeconds - a.overSeconds || a.target.localeCompare(b.target),
  )[0]!;
  if (worst.overSeconds <= 0)
    return { kind: 'none', reason: `no target took longer than planned (${compared.length} compared)` };
  return {
    kind: 'overrun',
    target: worst.target,
    node: worst.node,
    plannedNode: worst.plannedNode,
    actualSeconds: worst.totalSeconds,
    plannedSeconds: worst.plannedSeconds,
    overSeconds: worst.overSeconds,
    cause: describeCause(model, worst),
  };
}

function buildReportParts(options: BuildRunSummaryOptions) {
  return {
    reportWritten: options.model !== undefined,
    runDir: options.runDir,
    reportPath: options.joinPath(options.runDir, 'report.md'),
    pagePath: options.joinPath(options.runDir, 'index.html'),
    serveUrl: options.serve.url,
    serveCommand: options.serve.command,
  };
}

/** The summary of a run whose report could not be written: run.json's status and warnings, nothing made up. */
function buildFallbackSummary(options: BuildRunSummaryOptions): RunSummary {
  const { run } = options;
  const missing = 'no report: data.json was not written (the warnings say why)';
  return {
    stamp: run.stamp,
    harness: run.harness,
    lane: 'unknown',
    status: run.status,
    exitCode: run.exitCode,
    finishedTargets: 0,
    totalTargets: 0,
    unfinished: [],
    makespan: {
      measuredSeconds: null,
      plannedSeconds: null,
      lowerBoundSeconds: null,
      overPlanSeconds: null,
      overBoundSeconds: null,
      partialFiles: [],
    },
    forecast: { kind: 'no-band', reason: missing },
    criticalPath: { measured: [], measuredSeconds: null, planned: [], hasPlan: false },
    overrun: { kind: 'none', reason: missing },
    warnings: run.warnings.map((w) => `WARNING: ${w}`),
    noteCount: 0,
    ...buildReportParts(options),
  };
}

export function buildRunSummary(options: BuildRunSummaryOptions): RunSummary {
  const { model, runDir } = options;
  if (model === undefined) return buildFallbackSummary(options);
  const { summary } = model;
  const loud = listLoudWarningLines([{ label: runDir, model }]);
  return {
    stamp: model.run.stamp,
    harness: model.run.harness,
    lane: model.run.lane,
    status: model.run.status,
    exitCode: options.run.exitCode,
    finishedTargets: summary.targets.filter((t) => t.status === 'ok').length,
    totalTargets: summary.targets.length,
    unfinished: summary.targets
      .filter((t) => t.status !== 'ok')
      .map((t) => ({ target: t.target, status: t.status })),
    makespan: buildMakespan(summary),
    forecast: buildForecast(model),
    criticalPath: buildCriticalPath(model),
    overrun: buildOverrun(model),
    warnings: loud,
    noteCount: summary.warnings.length - loud.length,
    ...buildReportParts(options),
  };
}
