import { renderPageShell, renderWhySentence } from '../report/index.js';
import type { RunDiff, RunRef, TargetDiff } from './build-run-diff.js';
import { NO_EXPLANATION } from './build-diff-explanation.js';
import type { CauseShare, MakespanExplanation } from './build-makespan-explanation.js';
import { formatBytes, formatDuration } from '../shared/format-units.js';
import {
  formatDelta,
  formatPercent,
  formatPreciseSeconds,
  formatSignedSeconds,
  NOT_KNOWN,
} from './format-delta.js';
import { describeMethod, describeModelCheck, toShownCauses } from './render-explanation-md.js';
import { escapeHtml } from '../shared/escape-html.js';

// RunDiff → one self-contained HTML page (`rocm-perf diff A B --html FILE`): the makespan change split by cause
// first, as sentences and a bar per cause, then what the markdown shows. No script, no external file: it opens
// from disk, as a mail attachment or behind a strict CSP. Pure; every value is escaped.

const STYLE = `body{font:14px system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:16px;color:#222;max-width:1200px}
h1{font-size:20px}h2{font-size:16px;margin-top:24px}table{border-collapse:collapse;margin:8px 0}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
.note{color:#555}.loud{color:#a40000;font-weight:600}.moved{font-weight:600}
svg text{font:12px system-ui,sans-serif}.up{fill:#c0392b}.down{fill:#27864a}.other{fill:#999}`;

function table(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  numeric: number[] = [],
): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((c, i) => `<td${numeric.includes(i) ? ' class="n"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function causeLabel(c: CauseShare): string {
  switch (c.kind) {
    case 'build':
      return `${c.target} build`;
    case 'upload-throughput':
      return `${c.node} upload`;
    case 'placement':
      return 'placement or dispatch';
    case 'waiting':
      return 'waiting';
    case 'other':
      return 'other';
  }
}

/**
 * One bar per shown cause, from a zero line: right (red) made B slower, left (green) made it faster. The axis spans
 * the causes' own range and zero (not ± the largest): when every cause points one way, the bars take the whole
 * width instead of half of it.
 * @internal
 */
export function renderShareBars(causes: readonly CauseShare[]): string {
  const [labelWidth, barWidth, row] = [220, 420, 22];
  const low = Math.min(0, ...causes.map((c) => c.shareSeconds));
  const high = Math.max(0, ...causes.map((c) => c.shareSeconds));
  const pxPerSecond = barWidth / Math.max(1e-9, high - low);
  const zero = labelWidth + -low * pxPerSecond;
  const bars = causes.map((c, k) => {
    const width = Math.abs(c.shareSeconds) * pxPerSecond;
    const x = c.shareSeconds >= 0 ? zero : zero - width;
    const y = k * row + 4;
    const cls = c.kind === 'other' ? 'other' : c.shareSeconds >= 0 ? 'up' : 'down';
    return `<text x="${labelWidth - 6}" y="${y + 13}" text-anchor="end">${escapeHtml(causeLabel(c))}</text><rect class="${cls}" x="${x.toFixed(1)}" y="${y}" width="${Math.max(1, width).toFixed(1)}" height="${row - 8}"><title>${escapeHtml(c.sentence)}</title></rect><text x="${labelWidth + barWidth + 6}" y="${y + 13}">${escapeHtml(formatSignedSeconds(c.shareSeconds))}</text>`;
  });
  const height = causes.length * row + 8;
  return `<svg role="img" aria-label="makespan change by cause" width="${labelWidth + barWidth + 90}" height="${height}" viewBox="0 0 ${labelWidth + barWidth + 90} ${height}"><line x1="${zero.toFixed(1)}" x2="${zero.toFixed(1)}" y1="0" y2="${height}" stroke="#444"/>${bars.join('')}</svg>`;
}

function renderExplanation(diff: RunDiff, explanation: MakespanExplanation | null): string {
  if (!explanation) {
    const reason = diff.notes.find((note) => note.startsWith(NO_EXPLANATION)) ?? NO_EXPLANATION;
    return `<h2>Why the makespan changed</h2><p>Makespan ${escapeHtml(formatDelta(diff.makespanSeconds, 'seconds'))}; ${escapeHtml(reason)}.</p>`;
  }
  const { shown, rest } = toShownCauses(explanation);
  const ordered = [...shown.filter((c) => c.kind !== 'other'), ...shown.filter((c) => c.kind === 'other')];
  const items = ordered.map((c) => `<li>${escapeHtml(c.sentence)}</li>`);
  if (rest)
    items.splice(
      items.length - 1,
      0,
      `<li>${escapeHtml(`${formatSignedSeconds(rest.seconds)} ${rest.count} smaller causes (each under 1 % of the change; all in --json)`)}</li>`,
    );
  const change = explanation.actualSeconds;
  return `<h2>Why the makespan changed</h2>
<p><strong>Makespan ${escapeHtml(`${formatPreciseSeconds(change.a)} → ${formatPreciseSeconds(change.b)} (${formatSignedSeconds(change.delta ?? 0, { precise: true })}, ${formatPercent(change.pct)})`)}</strong>, split by cause; the shares add up to the change.</p>
${renderShareBars(ordered)}
<ul>${items.join('\n')}</ul>
<p class="note">${escapeHtml(`How: counterfactual replays of fixed per-node queues with B's figure for some causes and A's for the rest; ${describeMethod(explanation)}. ${describeModelCheck(explanation)}`)}</p>
${explanation.notes.map((note) => `<p class="note">Note: ${escapeHtml(note)}</p>`).join('\n')}`;
}

function describeRun(label: string, ref: RunRef): string {
  return `<li><strong>${label}</strong> <code>${escapeHtml(ref.stamp)}</code> — ${escapeHtml(`${ref.harness} harness${ref.namespace ? `, namespace ${ref.namespace}` : ''}, ${ref.status}`)}</li>`;
}

function renderPath(diff: RunDiff): string {
  const cp = diff.criticalPath;
  const chain = (list: readonly string[]) => (list.length ? list.join(' → ') : '(none)');
  const rows = cp.entries.map((e) => [
    e.target,
    formatDuration(e.dragSeconds.a, NOT_KNOWN),
    formatDuration(e.dragSeconds.b, NOT_KNOWN),
  ]);
  return `<h2>Critical path (${cp.source === 'drag' ? 'with drag, from run.json + plan.json' : 'from data.json'})</h2>
<ul><li>A: ${escapeHtml(`${chain(cp.a)} (${formatDuration(cp.seconds.a, NOT_KNOWN)})`)}</li><li>B: ${escapeHtml(`${chain(cp.b)} (${formatDuration(cp.seconds.b, NOT_KNOWN)})`)}</li></ul>
${cp.source === 'drag' ? table(['target', 'drag A', 'drag B'], rows, [1, 2]) : ''}`;
}

function toTargetRow(t: TargetDiff): string[] {
  const partial = [...t.partial.a.map((f) => `A ${f}`), ...t.partial.b.map((f) => `B ${f}`)];
  return [
    `${t.target}${partial.length ? ` (⚠ partial: ${partial.join('; ')})` : ''}`,
    t.node.moved ? `${t.node.a} → ${t.node.b}` : (t.node.b ?? t.node.a ?? 'n/a'),
    t.status.a === t.status.b ? (t.status.a ?? '') : `${t.status.a} → ${t.status.b}`,
    `${formatDuration(t.buildSeconds.a, NOT_KNOWN)} → ${formatDuration(t.buildSeconds.b, NOT_KNOWN)}`,
    formatDelta(t.buildSeconds, 'seconds'),
    formatDelta(t.totalSeconds, 'seconds'),
    formatDelta(t.uploadSeconds, 'seconds'),
    formatDelta(t.uploadBytes, 'bytes'),
    `${t.onCriticalPath.a ? 'A' : ''}${t.onCriticalPath.b ? 'B' : ''}`,
  ];
}

function renderTargets(diff: RunDiff): string {
  const both = diff.targets.filter((t) => t.presence === 'both');
  const only = diff.targets.filter((t) => t.presence !== 'both');
  const head = [
    'target',
    'node',
    'status',
    'build A → B',
    'Δbuild',
    'Δtotal',
    'Δupload',
    'Δbytes',
    'critical',
  ];
  const onlyRows = only.map((t) => {
    const side = t.presence === 'only-a' ? 'a' : 'b';
    return [
      t.target,
      side.toUpperCase(),
      t.node[side] ?? 'n/a',
      formatDuration(t.totalSeconds[side], NOT_KNOWN),
      formatBytes(t.uploadBytes[side], NOT_KNOWN),
    ];
  });
  return `<h2>Targets in both runs</h2>
${both.length ? table(head, both.map(toTargetRow), [4, 5, 6, 7]) : '<p>No target ran in both.</p>'}
${only.length ? `<h2>Targets in one run only</h2>${table(['target', 'run', 'node', 'total', 'upload bytes'], onlyRows, [3, 4])}` : ''}`;
}

/** B's misses against A, costliest first, then what the builders did not record (docs/explain.md). */
function renderWhy(diff: RunDiff): string {
  if (!diff.why) return '';
  const missed = diff.why.targets
    .filter((t) => t.why?.firstMiss)
    .sort((x, y) => (y.why?.costSeconds ?? -Infinity) - (x.why?.costSeconds ?? -Infinity));
  const items = missed.map((t) => `<li>${escapeHtml(renderWhySentence(t) ?? '')}</li>`);
  const notes = diff.why.run.notes.map((n) => `<p class="note">Note: ${escapeHtml(n)}</p>`);
  return `<h2>Why targets missed the cache</h2>
<p>${missed.length} of ${diff.why.targets.filter((t) => t.why).length} explained targets of B ran a step the cache did not give.</p>
${items.length ? `<ul>${items.join('')}</ul>` : ''}${notes.join('\n')}`;
}

export function renderRunDiffHtml(diff: RunDiff): string {
  const kind = diff.crossHarness
    ? `CROSS-HARNESS: ${diff.a.harness} vs ${diff.b.harness}, forced`
    : `${diff.a.harness} harness`;
  const lane = diff.crossLane
    ? `CROSS-LANE: ${diff.a.lane} vs ${diff.b.lane}, forced`
    : `lane ${diff.a.lane}`;
  const title = `Run diff ${diff.a.stamp} → ${diff.b.stamp} (${kind}, ${lane})`;
  const notes = diff.notes.filter((n) => diff.explanation !== null || !n.startsWith(NO_EXPLANATION));
  const body = `<h1>${escapeHtml(title)}</h1>
${renderExplanation(diff, diff.explanation)}
${renderWhy(diff)}
<h2>Runs</h2>
<ul>${describeRun('A', diff.a)}${describeRun('B', diff.b)}</ul>
<p>Deltas are B − A: positive means B took longer or moved more bytes.</p>
${diff.warnings.map((w) => `<p class="loud">⚠ ${w.side.toUpperCase()}: ${escapeHtml(w.message)}</p>`).join('\n')}
${notes.map((n) => `<p class="note">Note: ${escapeHtml(n)}</p>`).join('\n')}
<p><strong>Makespan:</strong> ${escapeHtml(`${formatDuration(diff.makespanSeconds.a, NOT_KNOWN)} → ${formatDuration(diff.makespanSeconds.b, NOT_KNOWN)} (${formatDelta(diff.makespanSeconds, 'seconds')})`)}; planned ${escapeHtml(`${formatDuration(diff.plannedMakespanSeconds.a, NOT_KNOWN)} → ${formatDuration(diff.plannedMakespanSeconds.b, NOT_KNOWN)}`)}</p>
${renderPath(diff)}
${renderTargets(diff)}`;
  return renderPageShell({ title, style: STYLE, body });
}
