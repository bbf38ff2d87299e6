import { formatBandPosition, formatMakespan, formatPct } from '../report/format-units.js';
import { formatDuration, formatSignedSecondsValue } from '../shared/format-units.js';
import {
  describeEnding,
  type RunSummary,
  type SummaryForecast,
  type SummaryOverrun,
} from './build-run-summary.js';

// The summary's words, row by row, shared by the terminal and the markdown renderers so both say the same thing.
// Seconds by the one rule (shared/format-units.ts), differences from the figures as shown: the parts add up. Pure.

export interface SummaryRow {
  label: string;
  /** The first line, then continuation lines. */
  lines: string[];
}

const seconds = (value: number | null): string => (value === null ? '—' : formatDuration(value));

function formatPartial(files: readonly string[]): string {
  return files.length ? ` ⚠ partial (${files.join(', ')})` : '';
}

/** `10.59s = plan 7.28s +3.31s = lower bound 6.83s +3.76s`, or a partial makespan not compared with the plan. */
function describeMakespan({ makespan, status }: RunSummary): string {
  const { measuredSeconds, plannedSeconds, lowerBoundSeconds, overPlanSeconds, overBoundSeconds } = makespan;
  const partial = formatPartial(makespan.partialFiles);
  if (measuredSeconds === null)
    return `not measured (no target has a build record); plan ${seconds(plannedSeconds)}, lower bound ${seconds(lowerBoundSeconds)}`;
  if (status !== 'completed')
    return `${formatMakespan(measuredSeconds, status)}${partial}: not comparable with the plan's ${seconds(plannedSeconds)} (lower bound ${seconds(lowerBoundSeconds)}), which covers every target`;
  const parts = [
    plannedSeconds === null || overPlanSeconds === null
      ? 'no plan'
      : `plan ${seconds(plannedSeconds)} ${formatSignedSecondsValue(overPlanSeconds)}`,
    lowerBoundSeconds === null || overBoundSeconds === null
      ? 'no lower bound'
      : `lower bound ${seconds(lowerBoundSeconds)} ${formatSignedSecondsValue(overBoundSeconds)}`,
  ];
  return `${seconds(measuredSeconds)}${partial} = ${parts.join(' = ')}`;
}

const formatBand = (band: { p10: number; p50: number; p90: number }) =>
  `p10 ${seconds(band.p10)} · p50 ${seconds(band.p50)} · p90 ${seconds(band.p90)}`;

function describeForecast(forecast: SummaryForecast): string[] {
  switch (forecast.kind) {
    case 'no-band':
      return [`no band yet: ${forecast.reason}`];
    case 'no-percentile':
      return [`no percentile: ${forecast.reason} (${formatBand(forecast)})`];
    case 'landed': {
      const where = formatBandPosition(forecast.outside, forecast.percentile);
      return [
        `landed at percentile ${Math.round(forecast.percentile)} of its band (${formatBand(forecast)})${where}`,
        ...(forecast.culprits.length ? [`outside their own bands: ${forecast.culprits.join(', ')}`] : []),
      ];
    }
  }
}

function describeCriticalPath({ criticalPath, makespan, status }: RunSummary): string[] {
  const { measured, planned, measuredSeconds } = criticalPath;
  if (measured.length === 0) return ['none (no target has a build record)'];
  const so = status === 'completed' ? '' : ` (of what ran: ${describeEnding(status)})`;
  const chain = measured.map((step) => `${step.target} (${step.node})`).join(' → ');
  const same = planned.join(' → ') === measured.map((step) => step.target).join(' → ');
  return [
    `${seconds(measuredSeconds)}${formatPartial(makespan.partialFiles)}${so}: ${chain}`,
    planned.length > 0
      ? `planned: ${same ? 'the same' : planned.join(' → ')}`
      : `planned: ${criticalPath.hasPlan ? 'none recorded in plan.json' : 'no plan.json'}`,
  ];
}

function describeOverrun(overrun: SummaryOverrun): string[] {
  if (overrun.kind === 'none') return [`none: ${overrun.reason}`];
  const moved =
    overrun.plannedNode !== null && overrun.plannedNode !== overrun.node
      ? `, planned on ${overrun.plannedNode}`
      : '';
  return [
    `${overrun.target} on ${overrun.node}${moved}: ${seconds(overrun.actualSeconds)} = planned ${seconds(overrun.plannedSeconds)} ${formatSignedSecondsValue(overrun.overSeconds)} (${formatPct((100 * overrun.overSeconds) / overrun.plannedSeconds)} over)`,
    overrun.cause.known ? `why: ${overrun.cause.text}` : `why: not known — ${overrun.cause.missing}`,
  ];
}

function describeWarnings({ warnings, noteCount }: RunSummary): string[] {
  const notes = noteCount === 0 ? '' : `; ${noteCount} note${noteCount === 1 ? '' : 's'} in the report`;
  if (warnings.length === 0) return [`none loud${notes}`];
  return [`${warnings.length} loud${notes}:`, ...warnings];
}

export function describeHeadline(summary: RunSummary): string {
  const exit = summary.exitCode === null ? '' : ` (exit ${summary.exitCode})`;
  const counted =
    summary.totalTargets === 0 ? '' : `, ${summary.finishedTargets} of ${summary.totalTargets} targets ok`;
  return `rocm-perf ${summary.harness} ${summary.stamp}: ${summary.status}${exit}${counted}`;
}

export function buildSummaryRows(summary: RunSummary): SummaryRow[] {
  const unfinished = summary.unfinished.map((t) => `${t.target} ${t.status}`);
  return [
    { label: 'makespan', lines: [describeMakespan(summary)] },
    ...(unfinished.length ? [{ label: 'not ok', lines: [unfinished.join(', ')] }] : []),
    { label: 'forecast', lines: describeForecast(summary.forecast) },
    { label: 'critical path', lines: describeCriticalPath(summary) },
    { label: 'biggest overrun', lines: describeOverrun(summary.overrun) },
    { label: 'warnings', lines: describeWarnings(summary) },
    {
      label: 'report',
      lines: [
        summary.reportWritten
          ? `${summary.reportPath} (the page: ${summary.pagePath})`
          : `not written: \`rocm-perf report ${summary.runDir}\` retries`,
      ],
    },
    { label: 'serve', lines: [`${summary.serveUrl} (while \`${summary.serveCommand}\` runs)`] },
  ];
}
