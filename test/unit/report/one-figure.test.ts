import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DataFile } from '../../../src/artifacts/index.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { readRunInputs } from '../../../src/run-dir/index.js';
import { renderReportMd } from '../../../src/report/render-report-md.js';
import { buildTargetsChartOption } from '../../../src/report/build-targets-chart-option.js';
import { renderSummaryHtml } from '../../../src/report/render-summary-html.js';
import { measuredWindowMs, readRunJson, traceFigures } from '../../helpers/sample-run-facts.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// One figure, one value (issue 28 item 4): report.md's bullets, its table, targets.svg and the page read a target's
// upload and setup/export from data.json's summary, so they cannot disagree. The shipped warm sample showed pytorch
// "upload 0.4s, setup/export 0s" in the bullets (the chart's joined bands) and "upload 0.3s" in the table. On the
// sample as re-recorded on real BuildKit, the figures come from each target's trace (traceFigures), whatever the
// recording.

const sample = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../fixtures/runs/gfx1201-warm',
);
let model: DataFile;
beforeAll(async () => {
  model = buildReportModel(await readRunInputs({ runDir: openRunDir(sample), generatedAtMs: 0 }));
});

describe('one figure, one value', () => {
  it("each target: data.json holds its trace's upload and setup/export, the parts of its gap", () => {
    const targets = Object.keys(readRunJson(sample).targets).sort();
    expect(model.summary.targets.map((t) => t.target).sort()).toEqual(targets);
    for (const target of targets) {
      const figures = traceFigures(sample, target);
      expect(figures.uploadSeconds).toBeGreaterThan(0);
      expect(figures.setupExportSeconds).toBeGreaterThan(0);
      const summary = model.summary.targets.find((t) => t.target === target)!;
      expect(summary, target).toMatchObject(figures);
      expect(summary.uploadSeconds! + summary.setupExportSeconds!, target).toBeCloseTo(
        summary.exportSeconds!,
        9,
      );
    }
  });

  it('report.md: the bullet and the table row say the same upload', () => {
    const md = renderReportMd({ model, charts: { timeline: 't.svg', targets: 'g.svg' } });
    // The target with the longest upload, checked against its trace (traceFigures reads the spans itself).
    const targets = Object.keys(readRunJson(sample).targets);
    const longest = targets
      .map((target) => ({ target, figures: traceFigures(sample, target) }))
      .sort((a, b) => b.figures.uploadSeconds - a.figures.uploadSeconds)[0]!;
    const bullet = md.split('\n').find((line) => line.startsWith(`- **${longest.target}** `));
    expect(bullet).toContain(` upload ${short(longest.figures.uploadSeconds)} (`);
    expect(bullet).toContain(`setup/export ${short(longest.figures.setupExportSeconds)}`);
    // And every target: the bullet's upload is the table row's.
    for (const { target } of model.summary.targets) {
      const bullet = md.split('\n').find((line) => line.startsWith(`- **${target}** `));
      const row = md.split('\n').find((line) => line.startsWith(`| ${target} | `));
      const bulletUpload = / upload ([^ ,]+) \(([^)]+)\)/.exec(bullet ?? '');
      const cells = row?.split(' | ');
      expect(bulletUpload?.slice(1), target).toEqual([cells?.[6], cells?.[7]]);
    }
  });

  it('targets.svg stacks build, upload and setup/export from the same figures', () => {
    const option = buildTargetsChartOption(model);
    const series = (option.series as { name: string; data: { value: number }[] }[]).filter(
      (s) => s.data.length > 0, // the node keys are empty series
    );
    const drawn = model.summary.targets.filter((t) => (t.totalSeconds ?? 0) > 0);
    expect(series.map((s) => s.data.map((d) => d.value))).toEqual([
      drawn.map((t) => t.buildSeconds),
      drawn.map((t) => t.uploadSeconds),
      drawn.map((t) => t.setupExportSeconds),
    ]);
  });

  it('the page shows the makespan with the notes next to the plan', () => {
    const html = renderSummaryHtml(model);
    // Measured: from run.json's measured start to the traces' last span; the plan's makespan and lower bound are
    // plan.json's.
    const [originMs, endMs] = measuredWindowMs(sample);
    const plan = JSON.parse(readFileSync(path.join(sample, 'plan.json'), 'utf8')) as {
      makespanSeconds: number;
      lowerBoundSeconds: number;
      costs: { mode: string; coldBuildFor: string[] };
    };
    const [measured, planned, bound] = [
      (endMs - originMs) / 1000,
      plan.makespanSeconds,
      plan.lowerBoundSeconds,
    ];
    // Hundredths: each shown figure within half a hundredth (and a millisecond of the files' own rounding).
    const shown = /<p>Measured ([\d.]+)s; planned ([\d.]+)s; lower bound ([\d.]+)s\.<\/p>/.exec(html);
    expect(shown, 'the makespan line').not.toBeNull();
    [measured, planned, bound].forEach((value, k) =>
      expect(Math.abs(Number(shown![k + 1]) - value)).toBeLessThanOrEqual(0.0051 + 0.001),
    );
    const targets = Object.keys(readRunJson(sample).targets).length;
    const withoutWarm = `planned without warm figures: no \`warm-build\` line for any of the ${targets} targets`;
    if (plan.costs.coldBuildFor.length === targets) expect(html).toContain(withoutWarm);
    else expect(html).not.toContain('planned without warm figures');
    const under = `measured ${shown![1]}s is under the plan&#39;s lower bound ${shown![3]}s`;
    if (measured < bound) expect(html).toContain(under);
    else expect(html).not.toContain('is under the plan&#39;s lower bound');
  });
});

/** Seconds as the page writes them under a minute: hundredths (three decimals under 0.1 s). */
function short(seconds: number): string {
  expect(seconds).toBeLessThan(59.995);
  return seconds === 0 ? '0s' : `${seconds.toFixed(seconds < 0.1 ? 3 : 2)}s`;
}
