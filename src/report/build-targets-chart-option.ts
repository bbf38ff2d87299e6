import type { BarSeriesOption, EChartsOption } from 'echarts';
import { formatDuration } from '../shared/format-units.js';
import type { DataFile } from '../artifacts/index.js';
import { builderColour, lighten, SETUP_EXPORT_COLOUR } from './chart-style.js';

// report.md's second chart: per target, total split into build (its own steps), upload and setup/export. Colour
// means node, as on the timeline: the build part in the node's colour, upload a lighter shade of it, setup/export
// grey; the legend keys the nodes (each swatch the colour of that node's build bars) and the subtitle the shades.
// The gap between build and total is the point of the chart.

const LABEL_FONT_PX = 12;
/** Over-estimates a label's width (0.62 em per character), so no name is cut at the chart's left edge. */
const CHAR_EM = 0.62;
const LABEL_MARGIN_PX = 24;

function toCategoryLabel(target: { target: string; node: string }): string {
  return `${target.target} (${target.node})`;
}

/** The plot's left edge: wide enough for the longest `target (node)` label. */
function buildGridLeftPx(labels: readonly string[]): number {
  const longest = Math.max(0, ...labels.map((label) => label.length));
  return Math.max(120, Math.ceil(longest * LABEL_FONT_PX * CHAR_EM) + LABEL_MARGIN_PX);
}

export function buildTargetsChartLayout(model: DataFile): { width: number; height: number } {
  return { width: 1000, height: 104 + Math.max(1, model.summary.targets.length) * 26 };
}

export function buildTargetsChartOption(model: DataFile): EChartsOption {
  const targets = model.summary.targets.filter((t) => (t.totalSeconds ?? 0) > 0);
  const laneIndex = new Map(model.timeline.lanes.map((lane, index) => [lane.node, index]));
  const colourOf = (node: string): string => builderColour(laneIndex.get(node) ?? 0);
  // The figures of data.json's summary, as report.md's bullets and tables show them (not the chart's bands, whose
  // upload phase joins spans less than a second apart).
  const figureOf = { steps: 'buildSeconds', upload: 'uploadSeconds', other: 'setupExportSeconds' } as const;
  const phase = (name: 'steps' | 'upload' | 'other') =>
    targets.map((t) => {
      const colour = colourOf(t.node);
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
  // The nodes in lane order that have a bar here; an empty series per node carries its legend key.
  const nodes = model.timeline.lanes
    .map((lane) => lane.node)
    .filter((node) => targets.some((t) => t.node === node));
  const nodeKeys = nodes.map((node): BarSeriesOption => ({
    type: 'bar',
    name: node,
    stack: 'total',
    data: [],
    itemStyle: { color: colourOf(node) },
  }));
  const labels = targets.map(toCategoryLabel);
  const left = buildGridLeftPx(labels);
  return {
    animation: false,
    backgroundColor: '#ffffff',
    textStyle: { fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif' },
    title: {
      text: `Build vs total per target (${model.run.harness} harness)`,
      subtext: "each bar: build (its own steps) in its node's colour · upload lighter · setup/export grey",
      left: 12,
      top: 6,
      textStyle: { fontSize: 14 },
      subtextStyle: { fontSize: 11, color: '#555' },
    },
    legend: { top: 48, left, data: nodes },
    grid: { left, right: 60, top: 78, bottom: 28 },
    xAxis: {
      type: 'value',
      axisLabel: { formatter: (value: number) => formatDuration(value) },
      splitLine: { lineStyle: { color: '#eee' } },
    },
    yAxis: {
      type: 'category',
      inverse: true,
      data: labels,
      axisTick: { show: false },
      axisLabel: { fontSize: LABEL_FONT_PX },
    },
    series: [
      series('build (steps)', 'steps'),
      series('upload', 'upload'),
      series('setup/export', 'other'),
      ...nodeKeys,
    ],
  };
}
