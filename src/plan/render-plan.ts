import { describeCostSet } from './choose-costs.js';
import type { Plan } from '../artifacts/index.js';
import { formatGiB } from './problem.js';

// Plan → the human table `rocm-perf plan` prints. Pure: strings in, string out.

const pad = (value: number) => String(value).padStart(2, '0');

/** A point in the run as h:mm:ss from its start. */
function renderClock(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 3600)}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
}

/** A length of time the way the spec writes it: 14s, 15m48s, 2h11m12s. */
function renderDuration(seconds: number): string {
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
  const memory = node.memoryBytes === undefined ? '' : `, ${formatGiB(node.memoryBytes)} memory`;
  const header = `${node.name} — ${node.linkMbps} MB/s, speed ${node.speed}${memory}; busy ${renderDuration(node.busySeconds)}, ${idle}`;
  if (queue.length === 0) return [header, '  (nothing queued)'];
  const band = plan.forecast?.banded === true ? plan.forecast : undefined;
  const withSetup = Object.values(plan.targets).some((target) => target.setupSeconds > 0);
  const rows = [
    [
      'start',
      'finish',
      'target',
      'build',
      'export',
      ...(withSetup ? ['setup'] : []),
      ...(band ? ['finish p10–p90'] : []),
      '',
    ],
  ];
  for (const name of queue) {
    const target = plan.targets[name]!;
    const critical = plan.criticalPath.includes(name) ? '*' : '';
    const finish = band?.targets[name]?.finish;
    rows.push([
      renderClock(target.startSeconds),
      renderClock(target.finishSeconds),
      name,
      renderDuration(target.buildSeconds),
      renderDuration(target.exportSeconds),
      ...(withSetup ? [renderDuration(target.setupSeconds)] : []),
      ...(band ? [finish ? `${renderClock(finish.p10)}–${renderClock(finish.p90)}` : ''] : []),
      critical,
    ]);
  }
  const right = withSetup ? [0, 1, 3, 4, 5] : [0, 1, 3, 4];
  return [header, ...renderTable(rows, right).map((line) => `  ${line}`)];
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

/** The placements the memory rule forbade, one line per target; nothing when the rule had nothing to go on. */
function renderMemoryRule(plan: Pick<Plan, 'memoryForbidden'>): string[] {
  const forbidden = plan.memoryForbidden;
  if (forbidden === undefined) return [];
  if (forbidden.length === 0)
    return ['memory rule   forbade nothing: every measured memory peak fits every node with memory_gb'];
  const byTarget = new Map<string, typeof forbidden>();
  for (const entry of forbidden) byTarget.set(entry.target, [...(byTarget.get(entry.target) ?? []), entry]);
  return [
    `memory rule   forbade ${forbidden.length} placement${forbidden.length === 1 ? '' : 's'} (a target's measured memory peak over the node's memory_gb):`,
    ...[...byTarget].map(
      ([target, entries]) =>
        `              ${target} (peak ${formatGiB(entries[0]!.memoryBytes)}) not on ${entries.map((e) => `${e.node} (${formatGiB(e.nodeMemoryBytes)})`).join(', ')}`,
    ),
  ];
}

const pct = (share: number) => `${Math.round(share * 100)} %`;
const POLICY_WORDS = { fixed: 'fixed queues', guided: 'guided dispatch' } as const;

/** How a forecast was made, in words: `2000 draws, guided dispatch, placed for the p90`. */
export function describeForecastMethod({
  draws,
  policy,
  placedFor,
}: Pick<NonNullable<Plan['forecast']>, 'draws' | 'policy' | 'placedFor'>): string {
  return `${draws} draws, ${POLICY_WORDS[policy]}${placedFor === 'p90' ? ', placed for the p90' : ''}`;
}

/** The forecast lines: the band, or why there is none yet; which nodes end up on the critical path. */
export function renderForecast(forecast: NonNullable<Plan['forecast']>): string[] {
  if (!forecast.banded) {
    const { historyRuns, thinTargets } = forecast;
    const count = Object.keys(forecast.distributions).length;
    return [
      `forecast      no band yet: ${thinTargets.length} of ${count} targets have fewer than 3 runs of history (fewest ${historyRuns}): ${thinTargets.slice(0, 6).join(', ')}${thinTargets.length > 6 ? ', …' : ''}`,
      '              the plan makespan above is one cost per target; `rocm-perf costs --from RUN --from RUN --from RUN` over 3+ runs adds the spread',
    ];
  }
  const { makespan, historyRuns } = forecast;
  const how = describeForecastMethod(forecast);
  const odds = Object.entries(forecast.nodes)
    .filter(([, node]) => node.criticalShare >= 0.005)
    .sort(([a, x], [b, y]) => y.criticalShare - x.criticalShare || a.localeCompare(b))
    .map(([name, node]) => `${name} ${pct(node.criticalShare)} (ends it ${pct(node.endsShare)})`);
  return [
    `forecast      p10 ${renderDuration(makespan.p10)} · p50 ${renderDuration(makespan.p50)} · p90 ${renderDuration(makespan.p90)}  (${how}; ${historyRuns}+ runs of history per target)`,
    `critical odds ${odds.join(', ')}`,
    '              (share of draws in which the node runs part of the critical path, and in which it finishes last)',
  ];
}

/** `costsLine`: where the costs came from, when not the target costs' lines (a replay's measured figures). */
export function renderPlan(plan: Plan, { costsLine }: { costsLine?: string } = {}): string {
  const count = Object.keys(plan.targets).length;
  const lines = [
    `plan for ${plan.arch}: ${count} targets on ${plan.nodes.length} nodes, strategy ${plan.strategy}`,
    costsLine ?? describeCostSet({ ...plan.costs, costs: { size: count } }),
    'start/finish are h:mm:ss from the start of the run; cost on a node = build ÷ speed + export ÷ link + setup',
    '* marks the critical path',
    '',
  ];
  for (const node of plan.nodes) lines.push(...renderNode(plan, node), '');
  lines.push(...renderSummary(plan), ...renderMemoryRule(plan));
  if (plan.forecast) lines.push(...renderForecast(plan.forecast));
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
