// A run in flight: pending and running targets have no build record yet, so every figure a finished target shows
// is null in data.json and `—` in report.md and the page's tables; a running target's total says how long it has
// run. Never a 0 that means "not yet".
import { describe, expect, it } from 'vitest';
import { DataFileSchema } from '../../../src/artifacts/index.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { renderReportMd } from '../../../src/report/render-report-md.js';
import { renderSummaryHtml } from '../../../src/report/render-summary-html.js';
import { makeRunFile, makeRunInputs, T0 } from './make-run-inputs.js';

const S = 1000;
const traceFigures = [
  'buildSeconds',
  'totalSeconds',
  'exportSeconds',
  'uploadSeconds',
  'uploadBytes',
  'uploadsWithoutSize',
  'cachedSteps',
  'totalSteps',
] as const;

function buildInFlightModel() {
  const run = makeRunFile({ status: 'running', finishedAtMs: null, exitCode: null });
  run.targets['triton-wheel'] = { status: 'running', node: 'forge', startedAtMs: T0 + 300 * S };
  run.targets['aiter-wheel'] = { status: 'pending', node: 'strix' };
  const inputs = makeRunInputs({ run, generatedAtMs: T0 + 420 * S });
  return buildReportModel({ ...inputs, traces: inputs.traces.filter((t) => t.target === 'pytorch') });
}

describe('a run in flight', () => {
  const model = buildInFlightModel();
  const target = (name: string) => model.summary.targets.find((t) => t.target === name)!;

  it('data.json: null, not 0, for every figure of a target without a build record', () => {
    for (const name of ['triton-wheel', 'aiter-wheel'])
      for (const key of traceFigures) expect(target(name)[key], `${name}.${key}`).toBeNull();
    expect(target('pytorch').totalSeconds).toBeGreaterThan(0);
    expect(DataFileSchema.safeParse(JSON.parse(JSON.stringify(model))).success).toBe(true);
  });

  it('report.md and the page: `—` where a finished target has a figure, the running one marked with its time', () => {
    const md = renderReportMd({ model, charts: { timeline: 'timeline.svg', targets: 'targets.svg' } });
    const html = renderSummaryHtml(model);
    const rows = (name: string) => [
      md.split('\n').find((line) => line.startsWith(`| ${name} |`)) ?? '',
      html.split('<tr>').find((row) => row.startsWith(`<td>${name}</td>`)) ?? '',
    ];
    for (const row of [...rows('aiter-wheel'), ...rows('triton-wheel')]) {
      expect(row.split('—').length - 1, row).toBeGreaterThanOrEqual(5);
      expect(row).not.toMatch(/\b0s\b|\b0 B\b|\b0\/0\b/);
    }
    for (const row of rows('triton-wheel')) expect(row).toContain('running 2m00s');
    for (const row of rows('pytorch')) expect(row).toContain('5m00s');
  });
});
