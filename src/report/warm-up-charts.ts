import type { CustomSeriesRenderItemAPI, CustomSeriesRenderItemReturn, EChartsOption } from 'echarts';
import { renderOptionSvg } from './render-chart-svg.js';

// A first drawing costs ECharts about twice a second one (its code is compiled and tuned as it first runs). The
// chart thread draws these two small charts while it waits for the report's model, which then draws in about half
// the time (warm sample: ~90 → ~50 ms). They use what the report's charts use: time and value axes beside a category
// axis, a custom series of rects with text, mark lines and areas, a line, rich axis labels, legends and stacked bars.
// What they draw is thrown away.

function renderBar(_params: unknown, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn {
  const start = api.coord([api.value(0), api.value(2)]);
  const end = api.coord([api.value(1), api.value(2)]);
  return {
    type: 'rect',
    shape: { x: start[0]!, y: start[1]! - 5, width: end[0]! - start[0]!, height: 10 },
    style: { fill: '#4a7' },
    textContent: { style: { text: 'step', fontSize: 10, overflow: 'truncate', width: 40 } },
    textConfig: { position: 'insideLeft' },
  } as CustomSeriesRenderItemReturn;
}

const TIMELINE: EChartsOption = {
  animation: false,
  title: { text: 'warm-up', subtext: 'timeline' },
  legend: [{ type: 'scroll', data: ['a', 'b'] }],
  grid: [
    { top: 40, height: 100, left: 60 },
    { top: 180, height: 60, left: 60 },
  ],
  xAxis: [
    { type: 'time', gridIndex: 0 },
    { type: 'time', gridIndex: 1 },
  ],
  yAxis: [
    {
      type: 'category',
      gridIndex: 0,
      data: ['n1', 'n2'],
      axisLabel: { formatter: (node: string) => `{node|${node}}`, rich: { node: { fontWeight: 'bold' } } },
    },
    { type: 'value', gridIndex: 1, max: 100 },
  ],
  series: [
    {
      type: 'custom',
      name: 'a',
      renderItem: renderBar,
      data: [
        [0, 1000, 0],
        [500, 2000, 1],
      ],
      markLine: { symbol: 'none', data: [{ xAxis: 700, name: 'plan', label: { formatter: '{b}' } }] },
      markArea: { data: [[{ xAxis: 100 }, { xAxis: 300 }]] },
    },
    {
      type: 'line',
      name: 'b',
      xAxisIndex: 1,
      yAxisIndex: 1,
      showSymbol: false,
      data: [
        [0, 10],
        [1000, 90],
        [2000, 40],
      ],
    },
  ],
};

const BARS: EChartsOption = {
  animation: false,
  legend: {},
  grid: { left: 100 },
  xAxis: { type: 'value' },
  yAxis: { type: 'category', data: ['p', 'q'] },
  series: [
    { type: 'bar', name: 'x', stack: 't', data: [{ value: 1, itemStyle: { color: '#c33' } }, 2] },
    { type: 'bar', name: 'y', stack: 't', data: [3, 4] },
  ],
};

export function warmUpCharts(): void {
  renderOptionSvg({ option: TIMELINE, width: 400, height: 300 });
  renderOptionSvg({ option: BARS, width: 400, height: 200 });
}
