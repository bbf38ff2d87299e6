import type { RunDiff, RunRef, TargetDiff } from './build-run-diff.js';
import type { Delta } from './to-delta.js';
import { NO_EXPLANATION } from './build-diff-explanation.js';
import { formatBytes, formatDuration } from '../shared/format-units.js';
import { formatDelta, NOT_KNOWN } from './format-delta.js';
import { renderExplanationMd } from './render-explanation-md.js';
import { toInertMarkdown, renderWhyMd } from '../report/index.js';
import { renderUsageDiffMd } from './render-usage-diff-md.js';

// RunDiff → markdown: a header naming both runs and their harness, the makespan change split by cause, the
// makespan, the critical path change and a table per target (worst Δtotal first), then the targets only in one
// run. Pure.

function describeRun(label: string, ref: RunRef): string {
  return `- **${label}** \`${ref.stamp}\` — ${ref.harness} harness${ref.namespace ? `, namespace \`${ref.namespace}\`` : ''}, ${ref.status}`;
}

function cell(value: string): string {
  return value.replace(/\|/g, '\\|');
}

function secondsPair(d: Delta): string {
  return `${formatDuration(d.a, NOT_KNOWN)} → ${formatDuration(d.b, NOT_KNOWN)}`;
}

function renderPath(diff: RunDiff): string[] {
  const cp = diff.criticalPath;
  const arrow = (list: string[]): string =>
    list.length ? list.map((t) => `\`${t}\``).join(' → ') : '(none)';
  const lines = [
    `## Critical path (${cp.source === 'drag' ? 'with drag, from run.json + plan.json' : 'from data.json'})`,
    '',
  ];
  lines.push(
    `- A: ${arrow(cp.a)} (${formatDuration(cp.seconds.a, NOT_KNOWN)})`,
    `- B: ${arrow(cp.b)} (${formatDuration(cp.seconds.b, NOT_KNOWN)})`,
  );
  if (cp.same)
    lines.push(
      '- Same chain in both runs; its length changed by ' + formatDelta(cp.seconds, 'seconds') + '.',
    );
  else
    lines.push(
      `- Joined the path in B: ${cp.joined.map((t) => `\`${t}\``).join(', ') || 'none'}; left it: ${cp.left.map((t) => `\`${t}\``).join(', ') || 'none'}.`,
    );
  const withDrag = cp.entries.filter((e) => e.dragSeconds.a !== null || e.dragSeconds.b !== null);
  if (withDrag.length > 0) {
    lines.push('', '| target | drag A | drag B |', '|---|---:|---:|');
    for (const e of withDrag)
      lines.push(
        `| ${cell(e.target)} | ${formatDuration(e.dragSeconds.a, NOT_KNOWN)} | ${formatDuration(e.dragSeconds.b, NOT_KNOWN)} |`,
      );
  }
  return lines;
}

/** `partial: B trace-pytorch.json` for a figure a damaged input file leaves partial; '' when complete. */
function describePartial(partial: { a: readonly string[]; b: readonly string[] }): string {
  const parts = [
    ...(partial.a.length ? [`A ${partial.a.join(', ')}`] : []),
    ...(partial.b.length ? [`B ${partial.b.join(', ')}`] : []),
  ];
  return parts.length ? `⚠ partial: ${parts.join('; ')}` : '';
}

function renderWarnings(diff: RunDiff): string[] {
  if (diff.warnings.length === 0) return [];
  return [
    '> **⚠ Loud warnings — figures marked partial below count only what the damaged files still hold:**',
    ...diff.warnings.map((w) => `> - ${w.side.toUpperCase()}: ${w.message}`),
    '',
  ];
}

function renderTargetRow(t: TargetDiff): string {
  const partial = describePartial(t.partial);
  const node = t.node.moved ? `**${t.node.a} → ${t.node.b}**` : (t.node.b ?? t.node.a ?? 'n/a');
  const status = t.status.a === t.status.b ? (t.status.a ?? '') : `${t.status.a} → ${t.status.b}`;
  const path = `${t.onCriticalPath.a ? 'A' : ''}${t.onCriticalPath.b ? 'B' : ''}`;
  return `| ${cell(t.target)}${partial ? ` (${partial})` : ''} | ${cell(node)} | ${cell(status)} | ${secondsPair(t.buildSeconds)} | ${formatDelta(t.buildSeconds, 'seconds')} | ${formatDelta(t.totalSeconds, 'seconds')} | ${formatDelta(t.uploadSeconds, 'seconds')} | ${formatDelta(t.uploadBytes, 'bytes')} | ${path} |`;
}

function renderOnlyIn(diff: RunDiff): string[] {
  const only = diff.targets.filter((t) => t.presence !== 'both');
  if (only.length === 0) return [];
  const lines = [
    '',
    '## Targets in one run only',
    '',
    '| target | run | node | status | build | total | upload bytes |',
    '|---|---|---|---|---:|---:|---:|',
  ];
  for (const t of only) {
    const side = t.presence === 'only-a' ? 'a' : 'b';
    const partial = describePartial(t.partial);
    lines.push(
      `| ${cell(t.target)}${partial ? ` (${partial})` : ''} | ${side.toUpperCase()} | ${cell(t.node[side] ?? 'n/a')} | ${t.status[side] ?? ''} | ${formatDuration(t.buildSeconds[side], NOT_KNOWN)} | ${formatDuration(t.totalSeconds[side], NOT_KNOWN)} | ${formatBytes(t.uploadBytes[side], NOT_KNOWN)} |`,
    );
  }
  return lines;
}

export function renderRunDiffMd(diff: RunDiff): string {
  const lane = diff.crossLane
    ? `, CROSS-LANE: ${diff.a.lane} vs ${diff.b.lane}, forced`
    : `, lane ${diff.a.lane}`;
  const title = diff.crossHarness
    ? `# Run diff (CROSS-HARNESS: ${diff.a.harness} vs ${diff.b.harness}, forced${lane})`
    : `# Run diff (${diff.a.harness} harness${lane})`;
  const lines = [
    title,
    '',
    ...renderExplanationMd(diff),
    ...(diff.why ? renderWhyMd(diff.why.targets, diff.why.run) : []),
    describeRun('A', diff.a),
    describeRun('B', diff.b),
    '',
    'Deltas are B − A: positive means B took longer or moved more bytes.',
    '',
  ];
  lines.push(...renderWarnings(diff));
  const notes = diff.notes.filter((n) => diff.explanation !== null || !n.startsWith(NO_EXPLANATION));
  if (notes.length > 0) lines.push(...notes.map((n) => `> **Note:** ${n}`), '');
  const makespanPartial = describePartial(diff.partial);
  lines.push(
    `**Makespan:** ${secondsPair(diff.makespanSeconds)} (${formatDelta(diff.makespanSeconds, 'seconds')})${makespanPartial ? ` ${makespanPartial}` : ''}`,
  );
  if (diff.plannedMakespanSeconds.a !== null || diff.plannedMakespanSeconds.b !== null)
    lines.push(
      '',
      `Planned makespan: ${secondsPair(diff.plannedMakespanSeconds)} (${formatDelta(diff.plannedMakespanSeconds, 'seconds')})`,
    );
  lines.push('', ...renderPath(diff), '', '## Targets in both runs', '');
  const both = diff.targets.filter((t) => t.presence === 'both');
  if (both.length === 0) lines.push('No target ran in both.');
  else {
    lines.push(
      '| target | node | status | build A → B | Δbuild | Δtotal | Δupload | Δbytes | critical |',
      '|---|---|---|---|---:|---:|---:|---:|---|',
    );
    lines.push(...both.map(renderTargetRow));
  }
  lines.push(...renderUsageDiffMd(diff));
  lines.push(...renderOnlyIn(diff));
  return toInertMarkdown(`${lines.join('\n')}\n`);
}
