import { describeCostSet } from './choose-costs.js';
import type { Plan } from '../artifacts/index.js';

// Plan → the human table `rocm-perf plan` prints. Pure: strings in, string out.

const pad = (value: number) => String(value).padStart(2, '0');

/** A point in the run as h:mm:ss from its start. */
export function renderClock(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 3600)}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
}

/** A length of time the way the spec writes it: 14s, 15m48s, 2h11m12s. */
export function renderDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  if (h > 0) return `${h}h${pad(m)}m${pad(s)}s`;
  return m > 0 ? `${m}m${pad(s)}s` : `${s}s`;
}

function renderTable(rows: readonly (readonly string[])[], rightAligned: readonly number[]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows.map((row) =>
    row
      .map((cell, c) => (rightAligned.includes(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
}

function renderNode(plan: Plan, node: Plan['nodes'][number]): string[] {
  const queue = plan.queues[node.name] ?? [];
  const idle =
    node.idleSeconds > 0.5
      ? `idle ${renderDuration(node.idleSeconds)} (waiting on deps ${renderDuration(node.dependencyWaitSeconds)}, placement loss ${renderDuration(node.placementLossSeconds)})`
      : 'never idle';
  const header = `${node.name} — ${node.linkMbps} MB/s, speed ${node.speed}; busy ${renderDuration(node.busySeconds)}, ${idle}`;
  if (queue.length === 0) return [header, '  (nothing queued)'];
  const rows = [['start', 'finish', 'target', 'build', 'export', '']];
  for (const name of queue) {
    const target = plan.targets[name]!;
    const critical = plan.criticalPath.includes(name) ? '*' : '';
    rows.push([
      renderClock(target.startSeconds),
      renderClock(target.finishSeconds),
      name,
      renderDuration(target.buildSeconds),
      renderDuration(target.exportSeconds),
      critical,
    ]);
  }
  return [header, ...renderTable(rows, [0, 1, 3, 4]).map((line) => `  ${line}`)];
}

function renderSummary(plan: Plan): string[] {
  const bound = plan.lowerBound;
  const parts = [
    `path ${renderDuration(bound.pathSeconds)}`,
    `load ${renderDuration(bound.loadSeconds)}`,
    `window ${renderDuration(bound.windowSeconds)}`,
    `largest target ${renderDuration(bound.targetSeconds)}`,
  ];
  return [
    `makespan      ${renderDuration(plan.makespanSeconds)} (${plan.makespanSeconds.toFixed(1)} s)`,
    `lower bound   ${renderDuration(plan.lowerBoundSeconds)} (${plan.lowerBoundSeconds.toFixed(1)} s), the largest of: ${parts.join(', ')}`,
    `gap           ${(plan.gap * 100).toFixed(1)} %${plan.gap < 1e-9 ? '  (at the lower bound: optimal under the cost model)' : ''}`,
    `critical path ${plan.criticalPath.join(' → ')}`,
  ];
}

export function renderPlan(plan: Plan): string {
  const count = Object.keys(plan.targets).length;
  const lines = [
    `plan for ${plan.arch}: ${count} targets on ${plan.nodes.length} nodes, strategy ${plan.strategy}`,
    describeCostSet({ ...plan.costs, costs: { size: count } }),
    'start/finish are h:mm:ss from the start of the run; cost on a node = build ÷ speed + export ÷ link',
    '* marks the critical path',
    '',
  ];
  for (const node of plan.nodes) lines.push(...renderNode(plan, node), '');
  lines.push(...renderSummary(plan));
  return `${lines.join('\n')}\n`;
}

export interface StrategyComparisonRow {
  strategy: string;
  description: string;
  makespanSeconds: number;
  lowerBoundSeconds: number;
  planningMs: number;
}

export function renderComparison(rows: readonly StrategyComparisonRow[]): string {
  const table = [['strategy', 'makespan', '÷ lower bound', 'planning', 'how it places']];
  for (const row of rows) {
    table.push([
      row.strategy,
      renderDuration(row.makespanSeconds),
      (row.makespanSeconds / row.lowerBoundSeconds).toFixed(3),
      `${row.planningMs.toFixed(1)} ms`,
      row.description,
    ]);
  }
  const bound = rows[0]?.lowerBoundSeconds ?? 0;
  return `${renderTable(table, [1, 2, 3]).join('\n')}\n\nlower bound ${renderDuration(bound)} (${bound.toFixed(1)} s)\n`;
}
