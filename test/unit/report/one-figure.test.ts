import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DataFile } from '../../../src/artifacts/index.js';
import { buildReportModel, readRunInputs, renderReportMd } from '../../../src/report/index.js';
import { buildTargetsChartOption } from '../../../src/report/build-targets-chart-option.js';
import { renderSummaryHtml } from '../../../src/report/render-summary-html.js';

// One figure, one value (issue 28 item 4): report.md's bullets, its table, targets.svg and the page read a target's
// upload and setup/export from data.json's summary, so they cannot disagree. The shipped warm sample showed pytorch
// "upload 0.4s, setup/export 0s" in the bullets (the chart's joined bands) and "upload 0.3s" in the table.

const sample = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../fixtures/runs/gfx1201-warm',
);
let model: DataFile;
beforeAll(async () => {
  model = buildReportModel(await readRunInputs({ dir: sample, generatedAtMs: 0 }));
});

describe('one figure, one value', () => {
  it('pytorch: data.json holds upload 0.264 s and setup/export 0.151 s, the parts of its 0.415 s gap', () => {
    const pytorch = model.summary.targets.find((t) => t.target === 'pytorch')!;
    expect(pytorch).toMatchObject({ exportSeconds: 0.415, uploadSeconds: 0.264, setupExportSeconds: 0.151 });
  });

  it('report.md: the bullet and the table row say the same upload', () => {
    const md = renderReportMd({ model, charts: { timeline: 't.svg', targets: 'g.svg' } });
    expect(md).toContain(
      '- **pytorch** (warm, strix): total 6.2s, build 5.7s — the 0.4s gap (7% of total): upload 0.3s (4.3 MB), setup/export 0.2s',
    );
    expect(md).toContain('| pytorch | strix | ok | 5.7s | 6.2s | 0.4s | 0.3s | 4.3 MB |');
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
    expect(html).toContain('<p>Measured 16s; planned 52s; lower bound 52s.</p>');
    expect(html).toContain('planned without warm figures: no `warm-build` line for any of the 13 targets');
    expect(html).toContain('measured 16s is under the plan&#39;s lower bound 52s');
  });
});
