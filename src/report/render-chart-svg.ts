import * as echarts from 'echarts';
import type { EChartsOption } from 'echarts';
import type { DataFile } from '../artifacts/index.js';
import { buildChartLayoutFor, buildChartOption } from './build-chart-option.js';
import { buildTargetsChartLayout, buildTargetsChartOption } from './build-targets-chart-option.js';

// Charts as SVG strings, rendered server-side; the timeline from the same option the page uses. Each chart is
// disposed straight after rendering: an undisposed instance keeps timers alive and the process with them.

export function renderOptionSvg({
  option,
  width,
  height,
}: {
  option: EChartsOption;
  width: number;
  height: number;
}): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(option);
    return chart.renderToSVGString();
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

export function renderTargetsSvg(model: DataFile): string {
  return renderOptionSvg({ option: buildTargetsChartOption(model), ...buildTargetsChartLayout(model) });
}
