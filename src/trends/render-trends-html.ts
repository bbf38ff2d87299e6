import { DEFAULT_LANE } from '../artifacts/index.js';
import { NOT_KNOWN } from '../diff/index.js';
import { formatBytes, formatDuration } from '../shared/format-units.js';
import { renderPageShell } from '../report/index.js';
import {
  CALIBRATION_GOAL,
  type HarnessTrend,
  type MetricTrend,
  type Regression,
  type TrendPoint,
  type Trends,
  type TrendUnit,
} from './build-trends.js';
import { renderSparklineSvg } from './render-sparkline-svg.js';
import { escapeHtml } from '../shared/escape-html.js';

// trends.html: per harness, the makespan and each target's build seconds and upload bytes across runs, as
// sparklines with the latest value and its baseline, and the regressions flagged. Static HTML with inline SVG
// and no script: the same page on the published site and under serve. Pure; every value is escaped.

export interface RenderTrendsHtmlOptions {
  trends: Trends;
  /** Link back to the list of runs. */
  indexHref: string;
  /** A run's page, e.g. `runs/<stamp>/` on the site or `/runs/<stamp>/` under serve. */
  runHref: (stamp: string) => string;
  title?: string;
  /** Runs that could not be read, shown under the rule. */
  notes?: readonly string[];
  /** Filter links (serve), already escaped, shown above the sections. */
  filters?: string;
  /** When given, per-target series are left out and each section links here to show them (serve's on-demand series). */
  targetsHref?: string;
}

export const TRENDS_PAGE = 'trends.html';

const STYLE =
  'body{font:14px system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:16px;color:#222}table{border-collapse:collapse;margin:8px 0 16px}th,td{padding:2px 8px;text-align:left;border-bottom:1px solid #eee}td.num{text-align:right;white-space:nowrap}.flag{color:#c0392b}.note{color:#666}svg.spark{vertical-align:middle}';

function format(value: number | null, unit: TrendUnit): string {
  return unit === 'seconds' ? formatDuration(value, NOT_KNOWN) : formatBytes(value, NOT_KNOWN);
}

function latestPoint(trend: MetricTrend): TrendPoint | undefined {
  return [...trend.points].reverse().find((p) => p.value !== null);
}

function renderMetricCells(trend: MetricTrend, title: string): string {
  const latest = latestPoint(trend);
  const spark = renderSparklineSvg({
    values: trend.points.map((p) => p.value),
    flagged: trend.points.map((p) => p.regression),
    title,
  });
  const flag = latest?.regression ? ' <strong class="flag">regression</strong>' : '';
  return `<td>${spark}</td><td class="num">${format(latest?.value ?? null, trend.unit)}${flag}</td><td class="num">${format(latest?.baseline ?? null, trend.unit)}</td>`;
}

function describeRegression(r: Regression, runHref: RenderTrendsHtmlOptions['runHref']): string {
  const what =
    r.metric === 'makespanSeconds'
      ? 'makespan'
      : `${r.subject} ${r.metric === 'buildSeconds' ? 'build seconds' : 'upload bytes'}`;
  const pct = r.baseline > 0 ? ` (+${Math.round(((r.value - r.baseline) / r.baseline) * 100)}%)` : '';
  return `<li><a href="${escapeHtml(runHref(r.stamp))}">${escapeHtml(r.stamp)}</a>: ${escapeHtml(what)} ${format(r.value, r.unit)} vs median ${format(r.baseline, r.unit)}${pct}</li>`;
}

function renderRegressions(h: HarnessTrend, runHref: RenderTrendsHtmlOptions['runHref']): string {
  const latest = h.stamps[h.stamps.length - 1];
  const current = h.regressions.filter((r) => r.stamp === latest);
  const earlier = h.regressions.filter((r) => r.stamp !== latest);
  const head = current.length
    ? `<p class="regressions"><strong class="flag">${current.length} regression(s) in the latest run</strong></p><ul>${current.map((r) => describeRegression(r, runHref)).join('')}</ul>`
    : `<p class="regressions">No regression in the latest run${latest ? ` (${escapeHtml(latest)})` : ''}.</p>`;
  return earlier.length
    ? `${head}<details><summary>${earlier.length} earlier regression(s)</summary><ul>${earlier.map((r) => describeRegression(r, runHref)).join('')}</ul></details>`
    : head;
}

/** How often the forecast band held for this harness, and the runs far outside it (docs/forecast.md). @internal */
export function renderCalibration(h: HarnessTrend, runHref: RenderTrendsHtmlOptions['runHref']): string {
  const c = h.calibration;
  if (c.runs === 0)
    return '<p class="calibration">Forecast calibration: no completed run with a forecast band yet (a band needs 3+ runs of history per target).</p>';
  const pct = Math.round((c.share ?? 0) * 100);
  const verdict =
    c.verdict === 'too few runs'
      ? `too few runs for a verdict (${CALIBRATION_GOAL.minRuns} needed)`
      : c.verdict === 'calibrated'
        ? 'calibrated'
        : `<strong class="flag">${escapeHtml(c.verdict)}</strong>`;
  const flagged = c.flagged.map(
    (f) =>
      `<li><a href="${escapeHtml(runHref(f.stamp))}">${escapeHtml(f.stamp)}</a>: far ${f.outside} its band${f.culprits.length ? `, put there by ${escapeHtml(f.culprits.slice(0, 3).join(', '))}` : ''}</li>`,
  );
  return `<p class="calibration">Forecast calibration: ${c.underP90} of ${c.runs} banded run${c.runs === 1 ? '' : 's'} (${pct} %) finished under their forecast p90 (goal ${CALIBRATION_GOAL.low * 100}–${CALIBRATION_GOAL.high * 100} %): ${verdict}. Percentiles, oldest first: ${c.points.map((p) => Math.round(p.percentile)).join(', ')}.</p>${flagged.length ? `<ul class="flagged">${flagged.join('')}</ul>` : ''}`;
}

function renderHarness(
  h: HarnessTrend,
  runHref: RenderTrendsHtmlOptions['runHref'],
  targetsHref: string | undefined,
): string {
  const header = '<tr><th></th><th>across runs</th><th>latest</th><th>baseline</th></tr>';
  const rows = h.targets.map(
    (t) =>
      `<tr><th scope="row">${escapeHtml(t.target)}</th>${renderMetricCells(t.buildSeconds, `${t.target} build seconds`)}${renderMetricCells(t.uploadBytes, `${t.target} upload bytes`)}</tr>`,
  );
  const excluded = h.excluded.length
    ? `<p class="note">Left out or partly left out: ${h.excluded.map((e) => `${escapeHtml(e.stamp)} (${escapeHtml(e.reason)})`).join('; ')}.</p>`
    : '';
  return `<section id="${escapeHtml(toSectionId(h))}">
<h2>${escapeHtml(h.harness)} harness, lane ${escapeHtml(h.lane)} — ${h.stamps.length} run${h.stamps.length === 1 ? '' : 's'}</h2>
${renderRegressions(h, runHref)}
${renderCalibration(h, runHref)}
<table class="makespan"><thead>${header}</thead><tbody><tr><th scope="row">makespan</th>${renderMetricCells(h.makespanSeconds, `${h.harness} makespan`)}</tr></tbody></table>
${
  targetsHref !== undefined
    ? `<p class="targets-link"><a href="${escapeHtml(targetsHref)}">Per-target series</a> (build seconds and upload bytes of ${h.targets.length} target${h.targets.length === 1 ? '' : 's'}).</p>`
    : `<table class="targets"><thead><tr><th rowspan="2">target</th><th colspan="3">build seconds</th><th colspan="3">upload bytes</th></tr><tr><th>across runs</th><th>latest</th><th>baseline</th><th>across runs</th><th>latest</th><th>baseline</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`
}
${excluded}
</section>`;
}

function describeRule({ rule }: Trends): string {
  return `A value is flagged as a regression when it is more than ${rule.pct}% and more than ${rule.seconds} s (bytes: ${formatBytes(rule.bytes, NOT_KNOWN)}) above the median of the previous ${rule.window} runs of the same harness that have it (at least ${rule.minBaseline}). The baseline column is that median. Harnesses and lanes are never mixed: cold, warm and bench runs answer different questions, and a run recorded elsewhere is a lane of its own.`;
}

export function renderTrendsHtml({
  trends,
  indexHref,
  runHref,
  title = 'rocm-perf: trends across runs',
  notes = [],
  filters,
  targetsHref,
}: RenderTrendsHtmlOptions): string {
  const nav = trends.harnesses
    .map((h) => `<a href="#${escapeHtml(toSectionId(h))}">${escapeHtml(`${h.harness} (${h.lane})`)}</a>`)
    .join(' · ');
  const sections = trends.harnesses.length
    ? trends.harnesses.map((h) => renderHarness(h, runHref, targetsHref)).join('\n')
    : '<p>No finished runs yet.</p>';
  const body = `<p><a href="${escapeHtml(indexHref)}">← all runs</a></p>
<h1>${escapeHtml(title)}</h1>
<p>${describeRule(trends)}</p>
${filters ?? ''}
${notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('\n')}
${nav ? `<p>${nav}</p>` : ''}
${sections}`;
  return renderPageShell({ title, style: STYLE, body });
}

/** The section of a harness in a lane: `harness-warm` for this fleet, `harness-warm-lane-nightly-aws` for another. */
function toSectionId({ harness, lane }: { harness: string; lane: string }): string {
  return lane === DEFAULT_LANE ? `harness-${harness}` : `harness-${harness}-lane-${lane}`;
}
