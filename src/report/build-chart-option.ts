import type {
  EChartsOption,
  LegendComponentOption,
  LineSeriesOption,
  TooltipComponentFormatterCallbackParams,
  XAXisComponentOption,
  YAXisComponentOption,
} from 'echarts';
import { formatBytes, formatDuration } from '../shared/format-units.js';
import type { DataFile } from '../artifacts/index.js';
import {
  buildChartLayout,
  builderColour,
  countLegendRows,
  LEGEND_ITEM,
  LEGEND_LEFT_PX,
  LEGEND_ROW_PX,
  LEGEND_TOP_PX,
  LEGEND_WIDTH_PX,
  PHASE_LEGEND,
  PLOT_LEFT_PX,
  PLOT_RIGHT_PX,
  type ChartLayout,
} from './chart-style.js';
import { buildGanttSeries, describeBand } from './build-gantt-series.js';
import { findAbsentNote } from './build-summary-cells.js';
import { buildTimeExtent } from './build-plan-marks.js';
import { formatMakespan } from './format-units.js';
import { escapeHtml } from '../shared/escape-html.js';

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
  const rows = buildLegendRows(model).reduce((sum, row) => sum + row.rows, 0);
  return buildChartLayout(model.timeline.lanes.length, rows);
}

interface LegendRow {
  id: 'builders' | 'lines' | 'keys';
  data: string[];
  /** Rows it takes: builders and CPU lines wrap; the keys fit one row. */
  rows: number;
  wrap: boolean;
}

/**
 * The CPU line of a node is a legend entry of its own: `<node> CPU`. Memory lines follow their builder only.
 * @internal
 */
export function cpuLineName(node: string): string {
  return `${node} CPU`;
}

function memLineName(node: string): string {
  return `${node} mem`;
}

/**
 * The legends, top to bottom: builders (lane order; each hides its lane's bars and lines), each node's CPU line
 * (lane order; hides only that line), and the phase keys with `plan` and `critical path`. Colour means node, so
 * the node legend is the key to it; there is no target legend (a target key in its node's colour would say the
 * colour meant the target): a bar names its target, its hover says the rest, and the tables list every target.
 */
function buildLegendRows(model: DataFile): LegendRow[] {
  const lanes = model.timeline.lanes;
  const builders = [...new Set(lanes.map((l) => l.builder))];
  const seriesNodes = new Set(model.series.filter((s) => s.metric === 'cpu').map((s) => s.node));
  const lines = lanes.filter((l) => seriesNodes.has(l.node)).map((l) => cpuLineName(l.node));
  const keys = [PHASE_LEGEND.steps, PHASE_LEGEND.upload, PHASE_LEGEND.setupExport, 'plan', 'critical path'];
  const wrapped = (id: LegendRow['id'], data: string[]): LegendRow => ({
    id,
    data,
    rows: Math.max(1, countLegendRows(data)),
    wrap: true,
  });
  return [
    wrapped('builders', builders),
    wrapped('lines', lines),
    { id: 'keys', data: keys, rows: 1, wrap: false },
  ];
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
    { left: PLOT_LEFT_PX, right: PLOT_RIGHT_PX, top: layout.ganttTopPx, height: layout.ganttHeightPx },
    { left: PLOT_LEFT_PX, right: PLOT_RIGHT_PX, top: layout.usageTopPx, height: layout.usageHeightPx },
  ];
  const series = [...gantt, ...buildUsageSeries(model, isOn)];
  return {
    animation: false,
    useUTC: true,
    backgroundColor: '#ffffff',
    textStyle: { fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif' },
    title: buildTitle(model),
    legend: buildLegends(model, selected, new Set(series.map((one) => String(one.name)))),
    grid: grids,
    xAxis: [0, 1].map((gridIndex) => buildTimeAxis(model, gridIndex)),
    yAxis: [buildLaneAxis(model), buildUsageAxis(model)],
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
  const inFlight = run.status === 'running' ? ' · LIVE' : '';
  const bootstrap = summary.bootstrap
    ? ` · bootstrap ${formatDuration(summary.bootstrap.seconds)} before, not in the makespan`
    : '';
  return {
    left: 12,
    top: 6,
    text: `${run.stamp} — ${run.harness} run, lane ${run.lane}${where}${run.arch ? ` (${run.arch})` : ''}${inFlight}`,
    subtext:
      `makespan ${formatMakespan(summary.makespanSeconds, run.status)}${plan}${lb}${bootstrap} · ${summary.targets.length} targets on ${model.timeline.lanes.length} nodes` +
      ` · every figure from the ${run.harness} harness · times UTC`,
    textStyle: { fontSize: 15 },
    subtextStyle: { fontSize: 12, color: '#555' },
  };
}

/** The legend rows (see buildLegendRows); each names only series the chart has (ECharts warns otherwise). */
function buildLegends(
  model: DataFile,
  selected: Readonly<Record<string, boolean>>,
  seriesNames: ReadonlySet<string>,
): EChartsOption['legend'] {
  let top = LEGEND_TOP_PX;
  return buildLegendRows(model).map((row): LegendComponentOption => {
    const legend: LegendComponentOption = {
      id: row.id,
      type: row.wrap ? 'plain' : 'scroll',
      top,
      left: LEGEND_LEFT_PX,
      width: LEGEND_WIDTH_PX,
      data: row.data.filter((name) => seriesNames.has(name)),
      selected: { ...selected },
      itemWidth: LEGEND_ITEM.widthPx,
      itemGap: LEGEND_ITEM.gapPx,
      itemHeight: LEGEND_ITEM.heightPx,
      textStyle: { fontSize: LEGEND_ITEM.fontPx },
    };
    top += row.rows * LEGEND_ROW_PX;
    return legend;
  });
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

/** The usage panel's title; with no samples.jsonl it says why the panel is empty (e.g. a .dockerbuild has none). */
function buildUsageAxis(model: DataFile): YAXisComponentOption {
  const absent = findAbsentNote(model.summary, 'samples.jsonl');
  return {
    type: 'value',
    gridIndex: 1,
    min: 0,
    max: 100,
    interval: 25,
    name:
      absent === undefined
        ? 'CPU busy (solid) and memory used (dashed), % of node'
        : `CPU busy and memory used, % of node: none drawn (${absent})`,
    nameLocation: 'end',
    nameTextStyle: { align: 'left', fontSize: 11, color: '#555' },
    axisLabel: { formatter: '{value}%' },
    splitLine: { lineStyle: { color: '#eeeeee' } },
  };
}

/** A node's lines, named `<node> CPU` / `<node> mem`; a builder turned off in the legend empties them. */
function buildUsageSeries(model: DataFile, isOn: (name: string) => boolean): LineSeriesOption[] {
  const laneIndex = new Map(model.timeline.lanes.map((lane, index) => [lane.node, index]));
  return model.series.map((series) => {
    const colour = builderColour(laneIndex.get(series.node) ?? 0);
    return {
      type: 'line',
      id: `${series.metric}:${series.node}`,
      name: series.metric === 'cpu' ? cpuLineName(series.node) : memLineName(series.node),
      xAxisIndex: 1,
      yAxisIndex: 1,
      data: isOn(series.builder) ? series.points : [],
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
