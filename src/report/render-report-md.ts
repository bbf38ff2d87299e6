import { renderWhyMd } from './render-why.js';
import { renderAdviceMd } from './render-advice-md.js';
import { formatBytes, formatDuration, toShownDifference } from '../shared/format-units.js';
import type { DataFile, SccacheCounts, TargetSummary } from '../artifacts/index.js';
import {
  buildNodeCells,
  buildNodeHeaders,
  buildRegistryRows,
  buildTargetCells,
  findAbsentNote,
  formatPartial,
} from './build-summary-cells.js';
import { formatBandPosition, formatMakespan, formatPct } from './format-units.js';
import { describeForecastMethod } from '../plan/index.js';
import { toInertMarkdown } from './to-inert-markdown.js';
import { renderUsageMd } from './render-usage-md.js';

// report.md: what a reader of a git forge sees. The SVGs sit beside it (relative links). Every section names the
// harness its numbers came from, because numbers from cold, warm and bench runs answer different questions.

export interface RenderReportMdOptions {
  model: DataFile;
  /** Relative links to the SVG charts beside report.md. */
  charts: { timeline: string; targets: string };
}

const HARNESS_MEANING: Record<DataFile['run']['harness'], string> = {
  cold: 'cold: full cold build under contention, no caches, cache export excluded',
  warm: 'warm: the build you actually run, caches on, pushes',
  bench: 'bench: isolated per-target cost, one target at a time',
  unknown:
    'unknown harness: this run dir has no run.json, so these figures cannot be tied to cold, warm or bench',
};

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function mdTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

function renderHeadline(model: DataFile, t: TargetSummary): string {
  const h = model.run.harness;
  if (t.totalSeconds === null || t.totalSeconds === 0 || t.exportSeconds === null)
    return `- **${t.target}** (${h}, ${t.node}): ${t.status}, no build record yet`;
  // The same data.json figures as the table and targets.svg: gap = upload + setup/export. The gap and the
  // setup/export part are derived from the figures as shown, so the line adds up to the digit.
  const gap = t.buildSeconds === null ? t.exportSeconds : toShownDifference(t.totalSeconds, t.buildSeconds);
  const share = Math.round((100 * t.exportSeconds) / t.totalSeconds);
  const upload = t.uploadSeconds ?? 0;
  const setupExport = upload > 0 ? toShownDifference(gap, upload) : (t.setupExportSeconds ?? 0);
  const parts = [
    upload > 0 ? `upload ${formatDuration(upload)} (${formatBytes(t.uploadBytes)})` : '',
    setupExport > 0 ? `setup/export ${formatDuration(setupExport)}` : '',
  ].filter(Boolean);
  const why = parts.length ? parts.join(', ') : 'setup and export';
  return `- **${t.target}**${formatPartial(t.partial)} (${h}, ${t.node}): total ${formatDuration(t.totalSeconds)}, build ${formatDuration(t.buildSeconds)} — the ${formatDuration(gap)} gap (${share}% of total): ${why}`;
}

function renderStreams(model: DataFile): string {
  return mdTable(
    ['stream', 'present', 'bytes', 'lines', 'records', 'skipped', 'rejected'],
    Object.entries(model.summary.streams).map(([name, s]) => [
      name,
      s.present ? 'yes' : 'no',
      String(s.bytes),
      String(s.lines),
      String(s.records),
      String(s.skipped),
      String(s.rejected),
    ]),
  );
}

function sccacheRow(who: string, c: SccacheCounts): string[] {
  const lookups = c.hits + c.misses;
  return [
    who,
    String(c.hits),
    String(c.misses),
    lookups ? formatPct((100 * c.hits) / lookups) : 'n/a',
    String(c.writes),
    formatBytes(c.bytesRead),
    formatBytes(c.bytesWritten),
  ];
}

/** One line: where the node samples came from and how often. */
function describeSampleSource(samples: NonNullable<DataFile['run']['samples']>): string {
  const every = `every ${formatInterval(samples.intervalMs)}`;
  return samples.source === 'prometheus'
    ? `Node samples: from Prometheus at ${samples.prometheusUrl ?? 'an unrecorded URL'} (${every}; live by instant queries, the whole window by query_range at the end), not scraped by rocm-perf.`
    : `Node samples: scraped by rocm-perf from each node's node_exporter ${every}.`;
}

const formatInterval = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

export function renderReportMd({ model, charts }: RenderReportMdOptions): string {
  const { run, summary } = model;
  const h = run.harness;
  const loud = summary.warnings.filter((w) => w.level === 'loud');
  const lines: string[] = [
    `# rocm-perf report — ${run.stamp}`,
    '',
    `**Harness: ${h}**, lane \`${run.lane}\` — ${HARNESS_MEANING[h]}. Namespace \`${run.namespace ?? 'unknown'}\`, arch ${run.arch ?? 'unknown'}, status ${run.status}${run.strategy ? `, plan strategy ${run.strategy}` : ''}${run.dispatch ? `, ${run.dispatch} dispatch` : ''}.`,
    `Every number below was produced by the **${h}** harness in lane \`${run.lane}\`; do not quote it as another harness's or lane's figure.`,
    ...(run.samples ? [describeSampleSource(run.samples)] : []),
    '',
    ...(loud.length
      ? [
          '> **⚠ Loud warnings — some figures below are partial (marked ⚠ partial) or may be a silent 0:**',
          ...loud.map((w) => `> - ${w.message}`),
          '',
        ]
      : []),
    `![Timeline (${h}): a lane per node, bars banded by phase (steps, upload, setup/export), plan strip below, critical path outlined red; CPU (solid) and memory (dashed) of each node on one % axis](${charts.timeline})`,
    '',
    `## Makespan (${h})`,
    '',
    renderMakespan(model),
    ...optionalLines(renderForecastLine(model)),
    ...summary.planNotes.map((note) => `- ⚠ ${note}`),
    ...(summary.bootstrap ? ['', renderBootstrap(summary.bootstrap)] : []),
    '',
    `## Build vs total per target (${h})`,
    '',
    'build is the span of the target’s own steps; total is the whole record. The gap is setup plus export (uploads included).',
    '',
    ...summary.targets.map((t) => renderHeadline(model, t)),
    '',
    `![Build vs total per target (${h})](${charts.targets})`,
    '',
    mdTable(
      [
        'target',
        'node',
        'status',
        'build',
        'total',
        'gap',
        'upload',
        'uploaded',
        'cached steps',
        'planned',
        'critical',
      ],
      summary.targets.map((t) =>
        buildTargetCells(t, { withPlannedNode: true, generatedAtMs: model.generatedAtMs }),
      ),
    ),
    '',
    ...renderWhyMd(summary.targets, summary.why),
    `## Nodes: utilisation and idle (${h})`,
    '',
    'upload rate (fit): each upload request fitted as a per-request cost + the bytes on the link ÷ a rate; the rate, and its share of the link_mbps run.json recorded (what the plan assumed), only when at least 2 requests spent 3× the per-request cost and 0.1 s on the wire (else `—`: small pushes are mostly latency). per request: that cost (median, ± how far single requests stray). `rocm-perf costs --from RUN...` suggests a new link_mbps from the same fit.',
    '',
    mdTable(
      buildNodeHeaders({ withTargetCount: true }),
      summary.nodes.map((n) => buildNodeCells(n, { withTargetCount: true })),
    ),
    '',
    ...renderUsageMd(model, h),
    `## Compiler cache traffic (${h}, prefix \`${summary.sccache.prefix ?? 'unknown: all prefixes counted'}\`)${formatPartial(summary.sccache.partial)}`,
    '',
    findAbsentNote(summary, 'sccache.log') ??
      mdTable(
        ['who', 'hits', 'misses', 'hit rate', 'writes', 'read', 'written'],
        [
          sccacheRow('total', summary.sccache.total),
          ...Object.entries(summary.sccache.perNode).map(([node, c]) => sccacheRow(node, c)),
          sccacheRow('outside the run prefix', summary.sccache.outsidePrefix),
        ],
      ),
    '',
    `## Registry writes (${h}, namespace \`${run.namespace ?? 'unknown'}\`)${formatPartial(summary.registry.partial)}`,
    '',
    findAbsentNote(summary, 'zot.jsonl') ??
      mdTable(['kind', 'bytes written', 'blobs', 'manifests'], buildRegistryRows(summary.registry)),
    ...(summary.registry.writesWithoutSize
      ? ['', `${summary.registry.writesWithoutSize} writes carried no size and are not in the byte counts.`]
      : []),
    '',
    `## Critical path (${h})`,
    '',
    `- measured (${formatDuration(summary.criticalPath.measuredSeconds)})${formatPartial(summary.partial)}: ${summary.criticalPath.measured.join(' → ') || 'none'}`,
    `- planned: ${summary.criticalPath.planned.join(' → ') || 'no plan.json'}`,
    '',
    ...(summary.advice === null
      ? []
      : [
          `## Advice (${h}; \`rocm-perf advise\`, docs/advise.md)`,
          '',
          ...renderAdviceMd(summary.advice),
          '',
        ]),
    '## Warnings',
    '',
    ...(summary.warnings.length
      ? summary.warnings.map((w) => `- ${w.level === 'loud' ? '**LOUD**' : 'note'}: ${w.message}`)
      : ['none']),
    '',
    '## Input streams',
    '',
    renderStreams(model),
    '',
    ...(run.artifacts.length ? ['## Artifacts', '', ...run.artifacts.map((a) => `- \`${a}\``), ''] : []),
  ];
  return toInertMarkdown(`${lines.join('\n')}\n`);
}

/** Measured vs planned, one sentence; the measured figure marked partial when a damaged trace leaves it so. */
export function renderMakespan({ run, summary }: DataFile): string {
  const partial = formatPartial(summary.partial);
  return run.status === 'completed'
    ? `Measured ${formatDuration(summary.makespanSeconds)}${partial}; planned ${formatDuration(summary.plannedMakespanSeconds)}; lower bound ${formatDuration(summary.lowerBoundSeconds)}.`
    : `Measured ${formatMakespan(summary.makespanSeconds, run.status)}${partial}: not comparable with the plan's ${formatDuration(summary.plannedMakespanSeconds)} (lower bound ${formatDuration(summary.lowerBoundSeconds)}), which covers every target.`;
}

/** The forecast against the run, one sentence (docs/forecast.md); undefined when the plan made none. */
export function renderForecastLine({ run, summary }: DataFile): string | undefined {
  const forecast = summary.forecast;
  if (!forecast) return undefined;
  const band = (b: { p10: number; p50: number; p90: number }) =>
    `p10 ${formatDuration(b.p10)} · p50 ${formatDuration(b.p50)} · p90 ${formatDuration(b.p90)}`;
  const how = describeForecastMethod(forecast);
  if (!forecast.banded || !forecast.planned) {
    const count = forecast.thinTargets.length;
    return `Forecast: no band — ${count} target${count === 1 ? '' : 's'} had fewer than 3 runs of history (fewest ${forecast.historyRuns}: ${forecast.thinTargets.slice(0, 4).join(', ')}${count > 4 ? ', …' : ''}); \`rocm-perf costs --from RUN\` over 3+ runs adds the spread.`;
  }
  const planned = `Forecast at planning (${how}): ${band(forecast.planned)}`;
  if (forecast.live)
    return `Forecast now, ${formatDuration(forecast.live.atSeconds)} in (conditioned on what finished and what is running): ${band(forecast.live)}. ${planned}.`;
  if (forecast.percentile === null)
    return `${planned}; the run ${run.status === 'completed' ? 'has no measured makespan' : `is ${run.status}`}, so it has no percentile.`;
  const where = formatBandPosition(forecast.outside, forecast.percentile);
  return `${planned}; the run landed at percentile ${Math.round(forecast.percentile)}${where}.`;
}

/** The images bootstrapped before the measured run: their own time, apart from the makespan. */
function renderBootstrap(bootstrap: NonNullable<DataFile['summary']['bootstrap']>): string {
  const builds = bootstrap.targets
    .map((build) => `${build.target} on ${build.node} (${formatDuration(build.seconds)})`)
    .join(', ');
  return `Bootstrap before the measured run: ${formatDuration(bootstrap.seconds)} building ${builds}, warm and pushed, not sampled, and not in the makespan above.`;
}

function optionalLines(line: string | undefined): string[] {
  return line === undefined ? [] : ['', line];
}
