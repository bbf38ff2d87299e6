import { formatDuration, formatSignedSecondsValue, toShownDifference } from '../shared/format-units.js';
import { renderPlan } from './render-plan.js';
import type { ReplayResult } from './replay-run.js';

// ReplayResult → what `rocm-perf plan --from-run RUN` prints: the makespans, the differences, where each figure came
// from, then the predicted plan's table. Pure. Figures follow the one rule of shared/format-units.ts (hundredths
// under a minute), so each difference is visibly the difference of the figures beside it.

const sign = (seconds: number): string => formatSignedSecondsValue(seconds).replace(/^-/, '−');
/** x − y as shown: the difference of the two figures printed beside it. */
const minus = (x: number, y: number): string => sign(toShownDifference(x, y));

function countSources(result: ReplayResult): Record<'build' | 'bytes' | 'setup', number> {
  const costs = Object.values(result.costs);
  const fromTrace = (key: 'buildFrom' | 'bytesFrom' | 'setupFrom') =>
    costs.filter((cost) => cost[key] === 'trace').length;
  return { build: fromTrace('buildFrom'), bytes: fromTrace('bytesFrom'), setup: fromTrace('setupFrom') };
}

function renderSources(result: ReplayResult): string {
  const count = Object.keys(result.costs).length;
  const from = countSources(result);
  return `measured costs: build seconds from traces for ${from.build} of ${count} targets, bytes for ${from.bytes}, setup for ${from.setup} (the rest from the target costs)`;
}

/** The predicted plan's costs line: this run's own figures (a warm run's are warm), not the target costs' lines. */
function renderCostsLine(result: ReplayResult): string {
  const count = Object.keys(result.costs).length;
  const from = countSources(result);
  const rest = from.build < count ? `; the other ${count - from.build} from the target costs` : '';
  return `costs: this ${result.harness} run's own measured figures (build seconds from traces for ${from.build} of ${count} targets${rest}), uploads at link_mbps`;
}

/** Why the baseline and diff's replay of the same run differ: what each replays. */
function explainBaseline(result: ReplayResult): string[] {
  const recorded = result.asRecorded;
  if (!recorded) return [];
  const waits = recorded.makespanSeconds - recorded.withoutWaitsSeconds;
  return [
    `the baseline is the planner's cost model on this run's measured costs: build and setup from the traces, uploads at link_mbps, no waits beyond the graph.`,
    `\`diff\` replays the run as recorded: each target's wall time, uploads at the node's measured rate, and the node start delays and target start lags the model does not explain (${formatDuration(waits)} of its ${formatDuration(recorded.makespanSeconds)}); so it gives back the run's own makespan, and baseline − actual is what the cost model leaves out.`,
  ];
}

export function renderReplay(result: ReplayResult): string {
  const rows: [string, string, string][] = [];
  const actual = result.actualMakespanSeconds;
  if (actual !== null) rows.push(['actual (run.json)', formatDuration(actual), '']);
  if (result.asRecorded)
    rows.push([
      'as recorded: the run replayed as `diff` does',
      formatDuration(result.asRecorded.makespanSeconds),
      actual === null ? '' : `${minus(result.asRecorded.makespanSeconds, actual)} vs actual`,
    ]);
  rows.push([
    `baseline: recorded queues, recorded fleet`,
    formatDuration(result.baselineMakespanSeconds),
    actual === null ? '' : `model vs actual ${minus(result.baselineMakespanSeconds, actual)}`,
  ]);
  if (result.recordedQueuesOnChangedFleetSeconds !== null) {
    rows.push([
      'recorded queues, changed fleet',
      formatDuration(result.recordedQueuesOnChangedFleetSeconds),
      `${minus(result.recordedQueuesOnChangedFleetSeconds, result.baselineMakespanSeconds)} vs baseline`,
    ]);
  }
  const share = `${result.deltaShare >= 0 ? '+' : '−'}${Math.abs(result.deltaShare * 100).toFixed(1)} %`;
  rows.push([
    `predicted: ${result.strategy}, ${result.fleetChanges.length > 0 ? 'changed' : 'recorded'} fleet`,
    formatDuration(result.predictedMakespanSeconds),
    `${minus(result.predictedMakespanSeconds, result.baselineMakespanSeconds)} (${share}) vs baseline`,
  ]);
  const width = Math.max(...rows.map((row) => row[0].length));
  const notes = [...explainBaseline(result), ...result.notes];
  const lines = [
    `what-if replay of run ${result.stamp} (${result.harness}, planned with ${result.recordedStrategy})`,
    `fleet: ${result.fleetChanges.length > 0 ? result.fleetChanges.join('; ') : 'as recorded'}`,
    renderSources(result),
    '',
    ...rows.map(([label, value, note]) => `${label.padEnd(width)}  ${value.padStart(9)}  ${note}`.trimEnd()),
    '',
    ...notes.map((note) => `note: ${note}`),
  ];
  if (notes.length > 0) lines.push('');
  lines.push('predicted plan:', renderPlan(result.plan, { costsLine: renderCostsLine(result) }).trimEnd());
  return `${lines.join('\n')}\n`;
}
