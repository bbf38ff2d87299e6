import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DataFile } from '../../../src/artifacts/index.js';
import { buildReportModel, readRunInputs, renderReportMd } from '../../../src/report/index.js';
import { buildTargetsChartOption } from '../../../src/report/build-targets-chart-option.js';
import { renderSummaryHtml } from '../../../src/report/render-summary-html.js';
import { measuredWindowMs, readRunJson, traceFigures } from '../../helpers/sample-run-facts.js';

// One figure, one value (issue 28 item 4): report.md's bullets, its table, targets.svg and the page read a target's
// upload and setup/export from data.json's summary, so they cannot disagree. The shipped warm sample showed pytorch
// "upload 0.4s, setup/export 0s" in the bullets (the chart's joined bands) and "upload 0.3s" in the table. On the
// sample as re-recorded on real BuildKit, apex-wheel is the target whose joined bands say otherwise (upload 1.5s,
// setup/export 1.1s, where its requests' union is 1.4s and the rest 1.2s); the figures come from its trace.

const sample = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../fixtures/runs/gfx1201-warm',
);
let model: DataFile;
beforeAll(async () => {
  model = buildReportModel(await readRunInputs({ dir: sample, generatedAtMs: 0 }));
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
    // apex-wheel's figures checked by hand against traceFigures: total 3.720 s, build 1.161 s, gap 2.559 s (69%),
    // upload 1.404 s of 212,207 bytes, setup/export 1.155 s.
    expect(md).toContain(
      '- **apex-wheel** (warm, kiln): total 3.7s, build 1.2s — the 2.6s gap (69% of total): upload 1.4s (212 kB), setup/export 1.2s',
    );
    expect(md).toContain('| apex-wheel | kiln | ok | 1.2s | 3.7s | 2.6s | 1.4s | 212 kB |');
    // And every other target: the bullet's upload is the table row's.
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
    const series = option.series as { name: string; data: { value: number }[] }[];
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
    // plan.json's. The page writes whole seconds from 10 s to a minute.
    const [originMs, endMs] = measuredWindowMs(sample);
    const plan = JSON.parse(readFileSync(path.join(sample, 'plan.json'), 'utf8')) as {
      makespanSeconds: number;
      lowerBoundSeconds: number;
    };
    const [measured, planned, bound] = [
      (endMs - originMs) / 1000,
      plan.makespanSeconds,
      plan.lowerBoundSeconds,
    ];
    for (const seconds of [measured, planned, bound]) {
      expect(seconds).toBeGreaterThanOrEqual(10);
      expect(seconds).toBeLessThan(59.5);
    }
    const s = (seconds: number) => `${Math.round(seconds)}s`;
    expect(html).toContain(`<p>Measured ${s(measured)}; planned ${s(planned)}; lower bound ${s(bound)}.</p>`);
    const targets = Object.keys(readRunJson(sample).targets).length;
    expect(html).toContain(
      `planned without warm figures: no \`warm-build\` line for any of the ${targets} targets`,
    );
    expect(measured).toBeLessThan(bound);
    expect(html).toContain(`measured ${s(measured)} is under the plan&#39;s lower bound ${s(bound)}`);
  });
});
