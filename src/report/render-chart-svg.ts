import type { EChartsOption } from 'echarts';
import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { DataFile } from '../artifacts/index.js';
import { buildChartLayoutFor, buildChartOption } from './build-chart-option.js';
import { buildTargetsChartLayout, buildTargetsChartOption } from './build-targets-chart-option.js';
import { SVG_CHART_PARTS } from './echarts-parts.js';

// Charts as SVG strings, rendered server-side; the timeline from the same option the page uses. Each chart is
// disposed straight after rendering: an undisposed instance keeps timers alive and the process with them.
// The same model gives the same bytes: ECharts names its ids after a per-process instance counter (`zr3-cls-12`),
// so ids are renumbered in order of first use (`publish --into` compares published files byte for byte). Only the
// parts the charts use are loaded (SVG_CHART_PARTS), not the whole of ECharts: `report` starts faster.

use([SVGRenderer, ...SVG_CHART_PARTS]);

/** `zr<instance>-<kind><n>` ids renumbered per kind in order of first appearance, as instance 0. @internal */
export function renumberSvgIds(svg: string): string {
  const ids = new Map<string, string>();
  const counts = new Map<string, number>();
  return svg.replace(/\bzr\d+-(cls-|c)(\d+)\b/g, (id: string, kind: string) => {
    let renamed = ids.get(id);
    if (renamed === undefined) {
      const n = counts.get(kind) ?? 0;
      counts.set(kind, n + 1);
      renamed = `zr0-${kind}${n}`;
      ids.set(id, renamed);
    }
    return renamed;
  });
}

/** One chart option as SVG (the report's charts, and the chart thread's warm-up). */
export function renderOptionSvg({
  option,
  width,
  height,
}: {
  option: EChartsOption;
  width: number;
  height: number;
}): string {
  const chart = init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(option);
    return renumberSvgIds(chart.renderToSVGString());
  } finally {
    chart.dispose();
  }
}

export function renderChartSvg(model: DataFile): string {
  return renderOptionSvg({
    option: buildChartOption(model, { interactive: false }),
    ...buildChartLayoutFor(model),
  });
}

/** @internal */
export function renderTargetsSvg(model: DataFile): string {
  return renderOptionSvg({ option: buildTargetsChartOption(model), ...buildTargetsChartLayout(model) });
}

/** A report's two charts. */
export interface ReportCharts {
  timeline: string;
  targets: string;
}

export function renderReportCharts(model: DataFile): ReportCharts {
  return { timeline: renderChartSvg(model), targets: renderTargetsSvg(model) };
}
