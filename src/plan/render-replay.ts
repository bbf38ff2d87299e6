import { renderDuration, renderPlan } from './render-plan.js';
import type { ReplayResult } from './replay-run.js';

// ReplayResult → what `rocm-perf plan --from-run RUN` prints: the four makespans, the difference, where each
// figure came from, then the predicted plan's table. Pure.

function renderSigned(seconds: number): string {
  const sign = seconds < -0.5 ? '−' : seconds > 0.5 ? '+' : '±';
  return `${sign}${renderDuration(Math.abs(seconds))}`;
}

function renderSources(result: ReplayResult): string {
  const costs = Object.values(result.costs);
  const fromTrace = (key: 'buildFrom' | 'bytesFrom' | 'setupFrom') =>
    costs.filter((cost) => cost[key] === 'trace').length;
  return `measured costs: build seconds from traces for ${fromTrace('buildFrom')} of ${costs.length} targets, bytes for ${fromTrace('bytesFrom')}, setup for ${fromTrace('setupFrom')} (the rest from the target costs)`;
}

export function renderReplay(result: ReplayResult): string {
  const rows: [string, string, string][] = [];
  if (result.actualMakespanSeconds !== null)
    rows.push(['actual (run.json)', renderDuration(result.actualMakespanSeconds), '']);
  const modelError =
    result.actualMakespanSeconds === null
      ? ''
      : `model vs actual ${renderSigned(result.baselineMakespanSeconds - result.actualMakespanSeconds)}`;
  rows.push([
    `baseline: recorded queues, recorded fleet`,
    renderDuration(result.baselineMakespanSeconds),
    modelError,
  ]);
  if (result.recordedQueuesOnChangedFleetSeconds !== null) {
    rows.push([
      'recorded queues, changed fleet',
      renderDuration(result.recordedQueuesOnChangedFleetSeconds),
      `${renderSigned(result.recordedQueuesOnChangedFleetSeconds - result.baselineMakespanSeconds)} vs baseline`,
    ]);
  }
  const share = `${result.deltaShare >= 0 ? '+' : '−'}${Math.abs(result.deltaShare * 100).toFixed(1)} %`;
  rows.push([
    `predicted: ${result.strategy}, ${result.fleetChanges.length > 0 ? 'changed' : 'recorded'} fleet`,
    renderDuration(result.predictedMakespanSeconds),
    `${renderSigned(result.deltaSeconds)} (${share}) vs baseline`,
  ]);
  const width = Math.max(...rows.map((row) => row[0].length));
  const lines = [
    `what-if replay of run ${result.stamp} (${result.harness}, planned with ${result.recordedStrategy})`,
    `fleet: ${result.fleetChanges.length > 0 ? result.fleetChanges.join('; ') : 'as recorded'}`,
    renderSources(result),
    '',
    ...rows.map(([label, value, note]) => `${label.padEnd(width)}  ${value.padStart(9)}  ${note}`.trimEnd()),
    '',
    ...result.notes.map((note) => `note: ${note}`),
  ];
  if (result.notes.length > 0) lines.push('');
  lines.push('predicted plan:', renderPlan(result.plan).trimEnd());
  return `${lines.join('\n')}\n`;
}
