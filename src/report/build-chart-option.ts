import type {
  EChartsOption,
  LegendComponentOption,
  LineSeriesOption,
  TooltipComponentFormatterCallbackParams,
  XAXisComponentOption,
  YAXisComponentOption,
} from 'echarts';
import type { DataFile } from '../artifacts/index.js';
import {
  buildChartLayout,
  builderColour,
  PHASE_LEGEND,
  USAGE_HEIGHT_PX,
  type ChartLayout,
} from './chart-style.js';
import { buildGanttSeries, describeBand } from './build-gantt-series.js';
import { buildTimeExtent } from './build-plan-marks.js';
import { formatBytes, formatDuration, formatMakespan } from './format-units.js';
import { escapeHtml } from './render-summary-html.js';

// data.json model → ONE ECharts option, used for the SVG (server-side render) and by the page. One time axis
// (two linked x axes drawn as one: the Gantt's and the usage plot's, same range, labels once); a lane per node;
// CPU and memory on ONE percentage axis (memory dashed, colour following the builder) — never a second y-scale.
// Legend state (`selected`) is an input, so the page can rebuild the option after a data change without losing it.

export interface ChartOptions {
  /** Tooltips, zoom and axis-pointer links; off for the SVG. */
  interactive: boolean;
  /** Legend state by name (builder, target, phase key, `plan`, `critical path`); absent = shown. */
  selected?: Readonly<Record<string, boolean>>;
}

export function buildChartLayoutFor(model: DataFile): ChartLayout {
  return buildChartLayout(model.timeline.lanes.length);
}

export function buildChartOption(
  model: DataFile,
  { interactive, selected = {} }: ChartOptions,
): EChartsOption {
  const layout = buildChartLayoutFor(model);
  const isOn = (name: string): boolean => selected[name] !== false;
  const laneIndex = new Map(model.timeline.lanes.map((lane, index) => [lane.node, index]));
  const gantt = buildGanttSeries({ model, isOn, laneIndex });
  const grids = [
    { left: 150, right: 110, top: layout.ganttTopPx, height: layout.ganttHeightPx },
    { left: 150, right: 110, top: layout.usageTopPx, height: USAGE_HEIGHT_PX },
  ];
  const series = [...gantt, ...buildUsageSeries(model)];
  return {
    animation: false,
    useUTC: true,
    backgroundColor: '#ffffff',
    textStyle: { fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif' },
    title: buildTitle(model),
    legend: buildLegends(model, selected, new Set(series.map((one) => String(one.name)))),
    grid: grids,
    xAxis: [0, 1].map((gridIndex) => buildTimeAxis(model, gridIndex)),
    yAxis: [buildLaneAxis(model), buildUsageAxis()],
    series,
    ...(interactive ? buildInteraction(model) : {}),
  };
}

function buildTitle(model: DataFile): EChartsOption['title'] {
  const { run, summary } = model;
  const where = run.namespace ? ` into ${run.namespace}` : '';
  const plan =
    summary.plannedMakespanSeconds === null
      ? ''
      : ` · plan ${formatDuration(summary.plannedMakespanSeconds)}`;
  const lb =
    summary.lowerBoundSeconds === null ? '' : ` · lower bound ${formatDuration(summary.lowerBoundSeconds)}`;
  const live = run.status === 'running' ? ' · LIVE' : '';
  const bootstrap = summary.bootstrap
    ? ` · bootstrap ${formatDuration(summary.bootstrap.seconds)} before, not in the makespan`
    : '';
  return {
    left: 12,
    top: 6,
    text: `${run.stamp} — ${run.harness} run, lane ${run.lane}${where}${run.arch ? ` (${run.arch})` : ''}${live}`,
    subtext:
      `makespan ${formatMakespan(summary.makespanSeconds, run.status)}${plan}${lb}${bootstrap} · ${summary.targets.length} targets on ${model.timeline.lanes.length} nodes` +
      ` · every figure from the ${run.harness} harness · times UTC`,
    textStyle: { fontSize: 15 },
    subtextStyle: { fontSize: 12, color: '#555' },
  };
}

/** Three legend rows: builders, targets, and the keys; each names only series the chart has (ECharts warns otherwise). */
function buildLegends(
  model: DataFile,
  selected: Readonly<Record<string, boolean>>,
  seriesNames: ReadonlySet<string>,
): EChartsOption['legend'] {
  const builders = [...new Set(model.timeline.lanes.map((l) => l.builder))];
  const targets = [...new Set(model.summary.targets.map((t) => t.target))].sort();
  const keys = [PHASE_LEGEND.steps, PHASE_LEGEND.upload, PHASE_LEGEND.setupExport, 'plan', 'critical path'];
  const row = (top: number, data: string[], id: string): LegendComponentOption => ({
    id,
    type: 'scroll',
    top,
    left: 150,
    right: 40,
    data: data.filter((name) => seriesNames.has(name)),
    selected: { ...selected },
    itemWidth: 16,
    itemGap: 18,
    itemHeight: 10,
    textStyle: { fontSize: 11 },
  });
  return [row(54, builders, 'builders'), row(78, targets, 'targets'), row(102, keys, 'keys')];
}

function buildTimeAxis(model: DataFile, gridIndex: number): XAXisComponentOption {
  const { startMs: originMs, endMs, spanMs: span } = buildTimeExtent(model);
  return {
    type: 'time',
    gridIndex,
    min: originMs - span * 0.005,
    max: endMs + span * 0.005,
    axisLabel: { show: gridIndex === 1, hideOverlap: true },
    axisTick: { show: gridIndex === 1 },
    axisLine: { show: gridIndex === 1 },
    splitLine: { show: true, lineStyle: { color: '#eeeeee' } },
    name: gridIndex === 1 ? 'UTC' : undefined,
    nameGap: 8,
  };
}

function buildLaneAxis(model: DataFile): YAXisComponentOption {
  const lanes = model.timeline.lanes;
  return {
    type: 'category',
    gridIndex: 0,
    inverse: true,
    data: lanes.map((l) => l.node),
    axisTick: { show: false },
    splitArea: { show: true, areaStyle: { color: ['#fafafa', '#f3f3f3'] } },
    axisLabel: {
      formatter: (node: string) => {
        const index = lanes.findIndex((l) => l.node === node);
        const lane = lanes[index];
        return lane && lane.builder !== node ? `{node|${node}}\n{builder|${lane.builder}}` : `{node|${node}}`;
      },
      rich: { node: { fontWeight: 'bold', fontSize: 12 }, builder: { fontSize: 10, color: '#777' } },
    },
  };
}

function buildUsageAxis(): YAXisComponentOption {
  return {
    type: 'value',
    gridIndex: 1,
    min: 0,
    max: 100,
    interval: 25,
    name: 'CPU busy (solid) and memory used (dashed), % of node',
    nameLocation: 'end',
    nameTextStyle: { align: 'left', fontSize: 11, color: '#555' },
    axisLabel: { formatter: '{value}%' },
    splitLine: { lineStyle: { color: '#eeeeee' } },
  };
}

function buildUsageSeries(model: DataFile): LineSeriesOption[] {
  const laneIndex = new Map(model.timeline.lanes.map((lane, index) => [lane.node, index]));
  return model.series.map((series) => {
    const colour = builderColour(laneIndex.get(series.node) ?? 0);
    return {
      type: 'line',
      id: `${series.metric}:${series.node}`,
      name: series.builder,
      xAxisIndex: 1,
      yAxisIndex: 1,
      data: series.points,
      showSymbol: false,
      connectNulls: false,
      color: colour,
      lineStyle: {
        color: colour,
        width: series.metric === 'cpu' ? 1.6 : 1.4,
        type: series.metric === 'cpu' ? 'solid' : 'dashed',
        opacity: 0.9,
      },
      emphasis: { focus: 'series' },
      z: series.metric === 'cpu' ? 4 : 3,
    };
  });
}

function buildInteraction(model: DataFile): Partial<EChartsOption> {
  return {
    tooltip: {
      trigger: 'item',
      confine: true,
      enterable: false,
      extraCssText: 'max-width: 560px; white-space: normal;',
      formatter: (params: TooltipComponentFormatterCallbackParams) => renderTooltip(model, params),
    },
    axisPointer: { link: [{ xAxisIndex: 'all' }], label: { backgroundColor: '#555' } },
    dataZoom: [
      { type: 'inside', xAxisIndex: [0, 1], filterMode: 'weakFilter' },
      { type: 'slider', xAxisIndex: [0, 1], filterMode: 'weakFilter', bottom: 12, height: 22 },
    ],
  };
}

function renderTooltip(model: DataFile, params: TooltipComponentFormatterCallbackParams): string {
  const item = Array.isArray(params) ? params[0] : params;
  if (!item) return '';
  const value = item.value as number[] | undefined;
  const id = String((item as { seriesId?: string }).seriesId ?? '');
  let lines: string[];
  if (id.startsWith('target:') && value) lines = describeBand(model, model.timeline.bands[value[6]!]!);
  else if (id === 'plan' && value) lines = describePlanned(model, value[3]!);
  else if (id === 'critical-path' && value) lines = describeCritical(model, value[3]!);
  else lines = [`${item.seriesName ?? ''}`];
  const [head, ...rest] = lines.map(escapeHtml);
  return `<b>${head ?? ''}</b>${rest.length ? `<br>${rest.join('<br>')}` : ''}`;
}

function describePlanned(model: DataFile, index: number): string[] {
  const planned = model.timeline.planned[index];
  if (!planned) return [];
  const actual = model.summary.targets.find((t) => t.target === planned.target);
  const rel = (ms: number): string => formatDuration((ms - model.timeline.originMs) / 1000);
  const actualText =
    actual?.startMs != null && actual.endMs != null
      ? `actual: ${actual.node}, +${rel(actual.startMs)} → +${rel(actual.endMs)}`
      : 'actual: not run';
  return [
    `plan: ${planned.target} on ${planned.node}`,
    `planned: +${rel(planned.startMs)} → +${rel(planned.endMs)}`,
    actualText,
  ];
}

function describeCritical(model: DataFile, index: number): string[] {
  const target = model.summary.targets[index];
  const path = model.summary.criticalPath;
  if (!target) return [];
  return [
    `critical path: ${target.target}`,
    `measured path ${formatDuration(path.measuredSeconds)}: ${path.measured.join(' → ')}`,
    path.planned.length ? `planned path: ${path.planned.join(' → ')}` : 'no plan',
    `upload ${formatDuration(target.uploadSeconds)} (${formatBytes(target.uploadBytes)})`,
  ];
}
