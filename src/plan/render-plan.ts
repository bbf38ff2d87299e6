import { describeCostSet } from './choose-costs.js';
import { formatSecondsAtStep, formatDuration, toSecondsStep, toShownParts } from '../shared/format-units.js';
import type { Plan } from '../artifacts/index.js';
import { formatGiB } from './problem.js';

// Plan → the human table `rocm-perf plan` prints. Pure: strings in, string out. Seconds follow the one rule of
// shared/format-units.ts, and the parts a row or a node line shows add up to its total as shown (docs/planning.md,
// "The plan table"): a row's start, parts and finish are shown to the step the rule gives its finish, the parts
// rounded to add up (start + build + export + setup = finish); a node's busy and idle add up to the makespan as shown,
// and its idle's two parts to its idle.

/** A length of time, or a time from the start of the run, by the one rule. */
const renderDuration = formatDuration;

/** Whole steps of `seconds` at `step`, as an integer count. */
const toSteps = (seconds: number, step: number) => Math.round(seconds / step);

function renderTable(rows: readonly (readonly string[])[], rightAligned: readonly number[]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows.map((row) =>
    row
      .map((cell, c) => (rightAligned.includes(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** The node line: busy + idle = the makespan as the summary shows it; waiting on deps + placement loss = idle. */
function renderNodeHeader(plan: Plan, node: Plan['nodes'][number]): string {
  const step = toSecondsStep(plan.makespanSeconds);
  const total = toSteps(plan.makespanSeconds, step);
  const [busy, idle] = toShownParts([node.busySeconds, node.idleSeconds], total, step) as [number, number];
  const at = (seconds: number) => formatSecondsAtStep(seconds, step);
  const memory = node.memoryBytes === undefined ? '' : `, ${formatGiB(node.memoryBytes)} memory`;
  const head = `${node.name} — ${node.linkMbps} MB/s, speed ${node.speed}${memory}`;
  if (toSteps(idle, step) === 0) return `${head}; busy ${at(busy)}, never idle`;
  const [deps, loss] = toShownParts(
    [node.dependencyWaitSeconds, node.placementLossSeconds],
    toSteps(idle, step),
    step,
  ) as [number, number];
  return `${head}; busy ${at(busy)} + idle ${at(idle)} (waiting on deps ${at(deps)}, placement loss ${at(loss)})`;
}

/** A row's cells: start, finish and the parts between them, all at the step of its finish, adding up. */
function renderRowTimes(target: Plan['targets'][string], withSetup: boolean): string[] {
  const step = toSecondsStep(target.finishSeconds);
  const [start, finish] = [toSteps(target.startSeconds, step), toSteps(target.finishSeconds, step)];
  const parts = toShownParts(
    [target.buildSeconds, target.exportSeconds, ...(withSetup ? [target.setupSeconds] : [])],
    finish - start,
    step,
  );
  const raw = [target.buildSeconds, target.exportSeconds, target.setupSeconds];
  // An exact 0 is `0s`; a part that rounds to nothing keeps the step's digits (`0.00s`), so it does not read as none.
  const at = (seconds: number, k: number) =>
    seconds === 0 && raw[k] !== 0 && step < 1
      ? `${(0).toFixed(step < 0.01 ? 3 : 2)}s`
      : formatSecondsAtStep(seconds, step);
  return [
    formatSecondsAtStep(start * step, step),
    formatSecondsAtStep(finish * step, step),
    ...parts.map((part, k) => at(part, k)),
  ];
}

function renderNode(plan: Plan, node: Plan['nodes'][number]): string[] {
  const queue = plan.queues[node.name] ?? [];
  const header = renderNodeHeader(plan, node);
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
    const [start, end, ...parts] = renderRowTimes(target, withSetup);
    rows.push([
      start!,
      end!,
      name,
      ...parts,
      ...(band ? [finish ? `${renderDuration(finish.p10)}–${renderDuration(finish.p90)}` : ''] : []),
      critical,
    ]);
  }
  const right = withSetup ? [0, 1, 3, 4, 5] : [0, 1, 3, 4];
  return [header, ...renderTable(rows, right).map((line) => `  ${line}`)];
}

/** `2h11m12s (7872.4 s)` from a minute, where the rule shows whole seconds; `52.82s` below. */
const renderWithSeconds = (seconds: number) =>
  toSecondsStep(seconds) < 1
    ? renderDuration(seconds)
    : `${renderDuration(seconds)} (${seconds.toFixed(1)} s)`;

function renderSummary(plan: Plan): string[] {
  const bound = plan.lowerBound;
  const parts = [
    `path ${renderDuration(bound.pathSeconds)}`,
    `load ${renderDuration(bound.loadSeconds)}`,
    `window ${renderDuration(bound.windowSeconds)}`,
    `largest target ${renderDuration(bound.targetSeconds)}`,
  ];
  return [
    `makespan      ${renderWithSeconds(plan.makespanSeconds)}`,
    `lower bound   ${renderWithSeconds(plan.lowerBoundSeconds)}, the largest of: ${parts.join(', ')}`,
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
    'start/finish are times from the start of the run; cost on a node = build ÷ speed + export ÷ link + setup',
    'each row: start + build + export + setup = finish (to the step its finish is shown at); each node: busy + idle = the makespan',
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
  return `${renderTable(table, [1, 2, 3]).join('\n')}\n\nlower bound ${renderWithSeconds(bound)}\n`;
}
