import type { BarSeriesOption, EChartsOption } from 'echarts';
import type { DataFile } from '../artifacts/index.js';
import { builderColour, lighten, SETUP_EXPORT_COLOUR } from './chart-style.js';
import { formatDuration } from './format-units.js';

// report.md's second chart: per target, total split into build (its own steps), upload and setup/export, in
// the builder's colour. The gap between build and total is the point of the chart.

export function buildTargetsChartLayout(model: DataFile): { width: number; height: number } {
  return { width: 1000, height: 90 + Math.max(1, model.summary.targets.length) * 26 };
}

export function buildTargetsChartOption(model: DataFile): EChartsOption {
  const targets = model.summary.targets.filter((t) => (t.totalSeconds ?? 0) > 0);
  const laneIndex = new Map(model.timeline.lanes.map((lane, index) => [lane.node, index]));
  // The figures of data.json's summary, as report.md's bullets and tables show them (not the chart's bands, whose
  // upload phase joins spans less than a second apart).
  const figureOf = { steps: 'buildSeconds', upload: 'uploadSeconds', other: 'setupExportSeconds' } as const;
  const phase = (name: 'steps' | 'upload' | 'other') =>
    targets.map((t) => {
      const colour = builderColour(laneIndex.get(t.node) ?? 0);
      return {
        value: t[figureOf[name]] ?? 0,
        itemStyle: {
          color: name === 'steps' ? colour : name === 'upload' ? lighten(colour, 0.55) : SETUP_EXPORT_COLOUR,
        },
      };
    });
  const series = (name: string, key: 'steps' | 'upload' | 'other'): BarSeriesOption => ({
    type: 'bar',
    name,
    stack: 'total',
    barWidth: 16,
    data: phase(key),
  });
  return {
    animation: false,
    backgroundColor: '#ffffff',
    textStyle: { fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif' },
    title: {
      text: `Build vs total per target (${model.run.harness} harness)`,
      left: 12,
      top: 6,
      textStyle: { fontSize: 14 },
    },
    legend: {
      top: 32,
      left: 170,
      data: ['build (steps)', 'upload', 'setup/export'],
      itemStyle: { color: '#888' },
    },
    grid: { left: 170, right: 60, top: 62, bottom: 28 },
    xAxis: {
      type: 'value',
      axisLabel: { formatter: (value: number) => formatDuration(value) },
      splitLine: { lineStyle: { color: '#eee' } },
    },
    yAxis: {
      type: 'category',
      inverse: true,
      data: targets.map((t) => `${t.target} (${t.node})`),
      axisTick: { show: false },
    },
    series: [series('build (steps)', 'steps'), series('upload', 'upload'), series('setup/export', 'other')],
  };
}
