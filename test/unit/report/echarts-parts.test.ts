import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { describe, expect, it, vi } from 'vitest';
import { buildChartLayoutFor, buildChartOption } from '../../../src/report/build-chart-option.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { TIMELINE_CHART_PARTS } from '../../../src/report/echarts-parts.js';
import { readRunInputs } from '../../../src/run-dir/read-run-dir.js';
import { copyRunWithForecast } from '../../helpers/add-forecast.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// The page bundles only TIMELINE_CHART_PARTS of ECharts. ECharts drops an option it has no part for, mostly in
// silence (a missing markLine just leaves the plan lines out), so: the chart drawn with those parts alone must be
// the chart the whole of ECharts draws. This file must not import `echarts` itself (nor anything that does, such
// as render-chart-svg.ts) before the first drawing: that would register every part.

function renderSvg(
  option: ReturnType<typeof buildChartOption>,
  size: { width: number; height: number },
): string {
  const chart = init(null, null, { renderer: 'svg', ssr: true, ...size });
  try {
    chart.setOption(option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

describe('TIMELINE_CHART_PARTS and SVG_CHART_PARTS', () => {
  // Both charts are drawn with the parts alone before anything loads the whole of ECharts: the fixture run, and a
  // copy whose plan carries a forecast, so its p10–p90 band (a markArea) is drawn too.
  it('draw the page’s chart and the report’s SVG charts exactly as the whole of ECharts does, without a warning', async () => {
    const dirs = [
      'test/fixtures/runs/20260314T092000Z-warm',
      copyRunWithForecast('test/fixtures/runs/20260314T092000Z-warm'),
    ];
    const models = await Promise.all(
      dirs.map(async (dir) =>
        buildReportModel(await readRunInputs({ runDir: openRunDir(dir), generatedAtMs: 1 })),
      ),
    );
    const cases = models.map((model) => ({
      option: buildChartOption(model, { interactive: true }),
      size: buildChartLayoutFor(model),
    }));
    expect(JSON.stringify(cases[1]!.option)).toContain('markArea');
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    use([...TIMELINE_CHART_PARTS, SVGRenderer]);
    const withParts = cases.map(({ option, size }) => renderSvg(option, size));
    expect([...warn.mock.calls, ...error.mock.calls]).toEqual([]);
    // The server's SVG charts, drawn by render-chart-svg.ts with SVG_CHART_PARTS alone: the timeline as report.md
    // embeds it and the targets chart.
    const { renderOptionSvg, renumberSvgIds } = await import('../../../src/report/render-chart-svg.js');
    const { buildTargetsChartLayout, buildTargetsChartOption } =
      await import('../../../src/report/build-targets-chart-option.js');
    const svgCases = models.flatMap((model) => [
      { option: buildChartOption(model, { interactive: false }), size: buildChartLayoutFor(model) },
      { option: buildTargetsChartOption(model), size: buildTargetsChartLayout(model) },
    ]);
    const served = svgCases.map(({ option, size }) => renderOptionSvg({ option, ...size }));
    expect([...warn.mock.calls, ...error.mock.calls]).toEqual([]);
    // The whole of ECharts, registered now, draws every one of them the same.
    await import('echarts');
    cases.forEach(({ option, size }, k) =>
      expect(renumberSvgIds(withParts[k]!)).toBe(renumberSvgIds(renderSvg(option, size))),
    );
    svgCases.forEach(({ option, size }, k) =>
      expect(served[k]!).toBe(renumberSvgIds(renderSvg(option, size))),
    );
  });
});
