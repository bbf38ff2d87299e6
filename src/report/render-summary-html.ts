import { formatCause } from './render-why.js';
import { formatBytes, formatDuration, formatSignedSecondsValue } from '../shared/format-units.js';
import type { DataFile, SccacheCounts } from '../artifacts/index.js';
import {
  buildNodeCells,
  buildNodeHeaders,
  buildRegistryRows,
  buildTargetCells,
  findAbsentNote,
  formatPartial,
} from './build-summary-cells.js';
import { renderForecastLine, renderMakespan } from './render-report-md.js';
import { buildUsageRows, USAGE_LEGEND } from './build-usage-rows.js';
import { escapeHtml } from '../shared/escape-html.js';

// The tables under the chart, as HTML. Used for the first paint (render-html) and by the page after each
// data.json update, so both always agree. Pure; every value is escaped.

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}

/** "What each step used": a row per RUN step, then each node's totals (build-usage-rows.ts); none when unmeasured. */
function renderUsageHtml(model: DataFile): string[] {
  const rows = buildUsageRows(model);
  if (rows === null) return [];
  return [
    `<h2 id="step-usage">What each step used <small>(${escapeHtml(model.summary.harness)} harness)</small></h2>` +
      `<p>${escapeHtml(USAGE_LEGEND)}</p>${table(rows.stepHead, rows.stepRows)}${table(rows.nodeHead, rows.nodeRows)}`,
  ];
}

export function renderWarningsHtml(model: DataFile): string {
  const items = model.summary.warnings.map(
    (w) => `<li class="${w.level}">${w.level === 'loud' ? '⚠ ' : ''}${escapeHtml(w.message)}</li>`,
  );
  return items.length ? `<ul class="warnings">${items.join('')}</ul>` : '';
}

/** Why targets missed the cache (docs/explain.md): a row per target that missed, costliest first; then the notes. */
function renderWhyHtml(model: DataFile): string {
  const why = model.summary.why;
  if (!why) return '';
  const missed = model.summary.targets
    .filter((t) => t.why?.firstMiss)
    .sort((a, b) => (b.why?.costSeconds ?? -Infinity) - (a.why?.costSeconds ?? -Infinity));
  const rows = missed.map((t) => [
    t.target,
    t.why!.firstMiss!.name,
    t.why!.cause ? formatCause(t.why!.cause) : '',
    t.why!.rebuiltAfter.join(', ') || '—',
    t.why!.costSeconds === null
      ? 'not priced'
      : `${formatSignedSecondsValue(t.why!.costSeconds)}${t.onCriticalPath ? ' (critical path)' : ''}`,
  ]);
  const against = why.against === null ? 'no run to compare with' : `against run ${why.against}`;
  const notes = why.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('');
  return (
    `<h2 id="why">Why targets missed the cache <small>(${escapeHtml(against)})</small></h2>` +
    (rows.length > 0
      ? table(['target', 'first step not cached', 'cause', 'rebuilt after it', 'makespan cost'], rows)
      : '<p>Every step of every explained target came from the cache.</p>') +
    (notes ? `<ul class="notes">${notes}</ul>` : '')
  );
}

export function renderSummaryHtml(model: DataFile): string {
  const { summary } = model;
  const harness = summary.harness;
  const targets = table(
    [
      'target',
      'node',
      'status',
      'build',
      'total',
      'gap (setup+export)',
      'upload',
      'uploaded',
      'cached steps',
      'plan start → finish',
      'critical',
    ],
    summary.targets.map((t) =>
      buildTargetCells(t, { withPlannedNode: false, generatedAtMs: model.generatedAtMs }),
    ),
  );
  const nodes = table(
    buildNodeHeaders({ withTargetCount: false }),
    summary.nodes.map((n) => buildNodeCells(n, { withTargetCount: false })),
  );
  const sccacheRow = (who: string, c: SccacheCounts): string[] => [
    who,
    String(c.hits),
    String(c.misses),
    String(c.writes),
    formatBytes(c.bytesRead),
    formatBytes(c.bytesWritten),
  ];
  const sccacheAbsent = findAbsentNote(summary, 'sccache.log');
  const registryAbsent = findAbsentNote(summary, 'zot.jsonl');
  const sccache = table(
    ['sccache', 'hits', 'misses', 'writes', 'read', 'written'],
    [
      sccacheRow('total', summary.sccache.total),
      ...Object.entries(summary.sccache.perNode).map(([node, c]) => sccacheRow(node, c)),
      sccacheRow('outside the run prefix', summary.sccache.outsidePrefix),
    ],
  );
  const registry = table(
    ['registry writes', 'bytes', 'blobs', 'manifests'],
    buildRegistryRows(summary.registry),
  );
  const streams = table(
    ['stream', 'bytes', 'lines', 'records', 'skipped', 'rejected'],
    Object.entries(summary.streams).map(([name, s]) => [
      s.present ? name : `${name} (absent)`,
      String(s.bytes),
      String(s.lines),
      String(s.records),
      String(s.skipped),
      String(s.rejected),
    ]),
  );
  const planNotes = summary.planNotes.map((note) => `<li class="loud">⚠ ${escapeHtml(note)}</li>`).join('');
  const forecast = renderForecastLine(model);
  return [
    `<h2>Makespan <small>(${escapeHtml(harness)} harness)</small></h2><p>${escapeHtml(renderMakespan(model))}</p>` +
      (forecast ? `<p class="forecast">${escapeHtml(forecast)}</p>` : '') +
      (planNotes ? `<ul class="warnings">${planNotes}</ul>` : ''),
    `<h2>Targets <small>(${escapeHtml(harness)} harness${model.run.dispatch ? `, ${escapeHtml(model.run.dispatch)} dispatch` : ''})</small></h2>${targets}`,
    renderWhyHtml(model),
    `<h2>Nodes <small>(${escapeHtml(harness)} harness)</small></h2>${nodes}`,
    ...renderUsageHtml(model),
    `<h2>Compiler cache <small>(prefix ${escapeHtml(summary.sccache.prefix ?? 'unknown')}, ${escapeHtml(harness)} harness)${escapeHtml(formatPartial(summary.sccache.partial))}</small></h2>${sccacheAbsent === undefined ? sccache : `<p>${escapeHtml(sccacheAbsent)}</p>`}`,
    `<h2>Registry writes <small>(${escapeHtml(harness)} harness)${escapeHtml(formatPartial(summary.registry.partial))}</small></h2>${registryAbsent === undefined ? registry : `<p>${escapeHtml(registryAbsent)}</p>`}`,
    `<h2>Critical path</h2><p>measured (${escapeHtml(formatDuration(summary.criticalPath.measuredSeconds))})${escapeHtml(formatPartial(summary.partial))}: ${escapeHtml(summary.criticalPath.measured.join(' → ') || 'none')}</p>` +
      `<p>planned: ${escapeHtml(summary.criticalPath.planned.join(' → ') || 'no plan.json')}</p>`,
    ...(summary.advice === null ? [] : [renderAdviceHtml(summary.advice)]),
    `<h2>Input streams</h2>${streams}`,
  ].join('\n');
}

/** The advisor's ranked actions with their savings and evidence (docs/advise.md). */
function renderAdviceHtml(advice: NonNullable<DataFile['summary']['advice']>): string {
  if (advice.length === 0)
    return '<h2>Advice</h2><p>nothing to advise: no rule found an action in this run</p>';
  const items = advice.map((entry) => {
    const saving =
      entry.savingSeconds === null
        ? 'saving not replayable'
        : entry.savingSeconds > 0
          ? `saves ${formatDuration(entry.savingSeconds)} of makespan`
          : 'saves nothing in this run';
    const evidence = entry.evidence.map((line) => `<li>${escapeHtml(line)}</li>`).join('');
    return `<li><strong>${escapeHtml(entry.kind)}</strong> (${escapeHtml(saving)}): ${escapeHtml(entry.action)}<ul>${evidence}</ul></li>`;
  });
  return `<h2>Advice <small>(rocm-perf advise)</small></h2><ol class="advice">${items.join('')}</ol>`;
}
