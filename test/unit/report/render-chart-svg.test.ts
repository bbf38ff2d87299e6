import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../../src/report/build-model.js';
import { readRunInputs } from '../../../src/run-dir/read-run-dir.js';
import { renderChartSvg, renderTargetsSvg, renumberSvgIds } from '../../../src/report/render-chart-svg.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// Server-side charts give the same bytes for the same model, however many charts the process rendered before
// (ECharts counts its instances in its ids); `publish --into` compares published files byte for byte.

describe('renderChartSvg', () => {
  it('renders the same model to the same bytes, twice in one process', async () => {
    const model = buildReportModel(
      await readRunInputs({
        runDir: openRunDir('test/fixtures/runs/20260314T092000Z-warm'),
        generatedAtMs: 1,
      }),
    );
    const first = [renderChartSvg(model), renderTargetsSvg(model)];
    const second = [renderChartSvg(model), renderTargetsSvg(model)];
    expect(second).toEqual(first);
    expect(first[0]).toContain('zr0-cls-0');
    expect(first[0]).not.toMatch(/zr[1-9]\d*-/);
  });

  it('renumbers ids per kind in order of first use, keeping references consistent', () => {
    const svg =
      '<g class="zr7-cls-12"><clipPath id="zr7-c4"></clipPath><path clip-path="url(#zr7-c4)" class="zr7-cls-3"/><path class="zr7-cls-12"/></g>';
    expect(renumberSvgIds(svg)).toBe(
      '<g class="zr0-cls-0"><clipPath id="zr0-c0"></clipPath><path clip-path="url(#zr0-c0)" class="zr0-cls-1"/><path class="zr0-cls-0"/></g>',
    );
  });
});
