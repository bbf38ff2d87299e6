import type {
  CustomSeriesOption,
  CustomSeriesRenderItemAPI,
  CustomSeriesRenderItemParams,
  CustomSeriesRenderItemReturn,
} from 'echarts';
import { formatBytes, formatDuration } from '../shared/format-units.js';
import type { Band, DataFile } from '../artifacts/index.js';
import {
  builderColour,
  CRITICAL_COLOUR,
  lighten,
  PHASE_LEGEND,
  PLAN_COLOUR,
  SETUP_EXPORT_COLOUR,
} from './chart-style.js';
import { buildForecastArea, buildPlanMarks } from './build-plan-marks.js';
import { BAR_LABEL_FONT_PX, BAR_LABEL_PADDING_PX, fitBarLabel } from './fit-bar-label.js';

// The Gantt half of the chart: one custom series per target (bars banded by phase), the plan strip, the
// critical-path outline and three empty series that key the phases in the legend.

const PHASE_CODE = { steps: 0, upload: 1, setup: 2, export: 2, running: 3 } as const;

export interface GanttContext {
  model: DataFile;
  isOn: (name: string) => boolean;
  laneIndex: Map<string, number>;
}

type Item = [
  startMs: number,
  endMs: number,
  lane: number,
  phase: number,
  colour: number,
  labelled: number,
  band: number,
];

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The lane's rectangle for [start, end] in the lane, between fractions `top` and `bottom` of its height. */
function laneRect(
  params: CustomSeriesRenderItemParams,
  api: CustomSeriesRenderItemAPI,
  top: number,
  bottom: number,
): Rect | undefined {
  const lane = api.value(2) as number;
  const [x0, yMid] = api.coord([api.value(0), lane]) as [number, number];
  const [x1] = api.coord([api.value(1), lane]) as [number, number];
  const laneHeight = (api.size?.([0, 1]) as number[])[1]!;
  const coord = params.coordSys as unknown as Rect;
  const left = Math.max(x0, coord.x);
  const right = Math.min(x1, coord.x + coord.width);
  if (right < left) return undefined;
  return {
    x: left,
    y: yMid - laneHeight / 2 + laneHeight * top,
    width: Math.max(right - left, 1),
    height: laneHeight * (bottom - top),
  };
}

function renderBand(
  params: CustomSeriesRenderItemParams,
  api: CustomSeriesRenderItemAPI,
): CustomSeriesRenderItemReturn {
  const rect = laneRect(params, api, 0.1, 0.66);
  if (!rect) return null;
  const colour = builderColour(api.value(4) as number);
  const phase = api.value(3) as number;
  const fill = [colour, lighten(colour, 0.55), SETUP_EXPORT_COLOUR, lighten(colour, 0.8)][phase]!;
  const style = {
    fill,
    stroke: phase === 3 ? colour : '#ffffff',
    lineWidth: phase === 3 ? 1 : 0.5,
    lineDash: phase === 3 ? [4, 3] : undefined,
  };
  const text = api.value(5) === 1 ? fitBarLabel(params.seriesName ?? '', rect.width) : undefined;
  return {
    type: 'rect',
    shape: rect,
    style,
    textContent: text
      ? {
          style: {
            text,
            fill: '#111',
            fontSize: BAR_LABEL_FONT_PX,
            width: rect.width - 2 * BAR_LABEL_PADDING_PX,
            overflow: 'truncate',
          },
        }
      : undefined,
    textConfig: text ? { position: 'insideLeft', distance: BAR_LABEL_PADDING_PX } : undefined,
  } as CustomSeriesRenderItemReturn;
}

function renderPlan(
  params: CustomSeriesRenderItemParams,
  api: CustomSeriesRenderItemAPI,
): CustomSeriesRenderItemReturn {
  const rect = laneRect(params, api, 0.72, 0.9);
  if (!rect) return null;
  return {
    type: 'rect',
    shape: rect,
    style: { fill: 'rgba(85,85,85,0.08)', stroke: PLAN_COLOUR, lineWidth: 1, lineDash: [3, 2] },
  };
}

function renderCritical(
  params: CustomSeriesRenderItemParams,
  api: CustomSeriesRenderItemAPI,
): CustomSeriesRenderItemReturn {
  const rect = laneRect(params, api, 0.06, 0.7);
  if (!rect) return null;
  return { type: 'rect', shape: rect, style: { fill: 'none', stroke: CRITICAL_COLOUR, lineWidth: 2.5 } };
}

/** GanttContext plus whether a node's builder is shown (the legend toggles builders; lanes are nodes). */
interface SeriesContext extends GanttContext {
  isNodeOn: (node: string) => boolean;
}

export function buildGanttSeries(context: GanttContext): CustomSeriesOption[] {
  const builderOf = new Map(context.model.timeline.lanes.map((l) => [l.node, l.builder]));
  const series: SeriesContext = { ...context, isNodeOn: (node) => context.isOn(builderOf.get(node) ?? node) };
  return [
    ...buildTargetSeries(series),
    buildPlanSeries(series),
    buildCriticalSeries(series),
    ...buildBuilderKeys(context.model),
    ...buildPhaseKeys(),
  ];
}

/** A custom series drawn on the lanes: x from the item's [start, end], y its lane. */
function toLaneSeries(
  series: Pick<CustomSeriesOption, 'id' | 'name' | 'renderItem' | 'data' | 'z' | 'markLine' | 'markArea'> & {
    color: string;
  },
): CustomSeriesOption {
  const { color, ...rest } = series;
  return {
    type: 'custom',
    xAxisIndex: 0,
    yAxisIndex: 0,
    encode: { x: [0, 1], y: 2 },
    itemStyle: { color },
    ...rest,
  };
}

function buildTargetSeries({ model, isOn, isNodeOn, laneIndex }: SeriesContext): CustomSeriesOption[] {
  const targets = [
    ...new Set([...model.summary.targets.map((t) => t.target), ...model.timeline.bands.map((b) => b.target)]),
  ].sort();
  const visiblePhase = (band: Band): boolean =>
    isOn(
      band.phase === 'steps'
        ? PHASE_LEGEND.steps
        : band.phase === 'upload'
          ? PHASE_LEGEND.upload
          : PHASE_LEGEND.setupExport,
    );
  return targets.map((target) => {
    const bands = model.timeline.bands
      .map((band, index) => ({ band, index }))
      .filter(({ band }) => band.target === target);
    const widest = [...bands].sort(
      (a, b) => b.band.endMs - b.band.startMs - (a.band.endMs - a.band.startMs),
    )[0]?.index;
    const data: Item[] = bands
      .filter(({ band }) => isNodeOn(band.node) && visiblePhase(band))
      .map(({ band, index }) => [
        band.startMs,
        band.endMs,
        laneIndex.get(band.node) ?? 0,
        PHASE_CODE[band.phase],
        laneIndex.get(band.node) ?? 0,
        index === widest ? 1 : 0,
        index,
      ]);
    const lane = laneIndex.get(bands[0]?.band.node ?? '');
    return toLaneSeries({
      id: `target:${target}`,
      name: target,
      renderItem: renderBand,
      color: lane === undefined ? '#8a8a8a' : builderColour(lane),
      data,
      z: 2,
    });
  });
}

function buildPlanSeries({ model, isOn, isNodeOn, laneIndex }: SeriesContext): CustomSeriesOption {
  const data = model.timeline.planned
    .map((p, index) => ({ p, index }))
    .filter(({ p }) => isOn(p.target) && isNodeOn(p.node))
    .map(({ p, index }) => [p.startMs, p.endMs, laneIndex.get(p.node) ?? 0, index]);
  const marks = buildPlanMarks(model);
  const area = buildForecastArea(model);
  return toLaneSeries({
    id: 'plan',
    name: 'plan',
    renderItem: renderPlan,
    color: PLAN_COLOUR,
    data,
    z: 1,
    markLine: marks.length
      ? {
          symbol: 'none',
          silent: true,
          lineStyle: { color: PLAN_COLOUR, type: 'dashed' },
          label: { formatter: '{b}', position: 'end', fontSize: 10, color: '#444' },
          data: marks,
        }
      : undefined,
    markArea: area.length
      ? {
          silent: true,
          itemStyle: { color: FORECAST_FILL },
          // Above the Gantt, not inside it: inside, the lanes' bars (drawn over the plan series) hid it.
          label: { formatter: '{b}', position: 'top', distance: 3, fontSize: 10, color: '#444' },
          data: area,
        }
      : undefined,
  });
}

/** The forecast band's fill: the plan's grey, faint enough that bars over it stay readable. */
const FORECAST_FILL = 'rgba(120, 120, 160, 0.12)';

function buildCriticalSeries({ model, isOn, isNodeOn, laneIndex }: SeriesContext): CustomSeriesOption {
  const data = model.summary.targets
    .map((t, index) => ({ t, index }))
    .filter(({ t }) => t.onCriticalPath && t.startMs !== null && isOn(t.target) && isNodeOn(t.node))
    .map(({ t, index }) => [t.startMs!, t.endMs ?? model.timeline.endMs, laneIndex.get(t.node) ?? 0, index]);
  return toLaneSeries({
    id: 'critical-path',
    name: 'critical path',
    renderItem: renderCritical,
    color: CRITICAL_COLOUR,
    data,
    z: 3,
  });
}

/** Empty series whose only job is a legend key per builder: turning one off hides its lane's bars and lines. */
function buildBuilderKeys(model: DataFile): CustomSeriesOption[] {
  const seen = new Set<string>();
  return model.timeline.lanes.flatMap(({ builder }, index) => {
    if (seen.has(builder)) return [];
    seen.add(builder);
    return [
      {
        type: 'custom',
        id: `builder:${builder}`,
        name: builder,
        renderItem: () => null,
        itemStyle: { color: builderColour(index) },
        data: [],
        xAxisIndex: 0,
        yAxisIndex: 0,
      },
    ];
  });
}

/** Empty series whose only job is a legend key (and a toggle) per phase. */
function buildPhaseKeys(): CustomSeriesOption[] {
  const keys = [
    [PHASE_LEGEND.steps, '#4a4a4a'],
    [PHASE_LEGEND.upload, '#a8a8a8'],
    [PHASE_LEGEND.setupExport, SETUP_EXPORT_COLOUR],
  ] as const;
  return keys.map(([name, color]) => ({
    type: 'custom',
    id: name,
    name,
    renderItem: () => null,
    itemStyle: { color },
    data: [],
    xAxisIndex: 0,
    yAxisIndex: 0,
  }));
}

export function describeBand(model: DataFile, band: Band): string[] {
  const target = model.summary.targets.find((t) => t.target === band.target);
  const seconds = (band.endMs - band.startMs) / 1000;
  const phase = band.phase === 'setup' || band.phase === 'export' ? 'setup/export' : band.phase;
  const head = `${band.target} on ${band.node} · ${phase} ${formatDuration(seconds)}${band.bytes === null ? '' : ` · ${formatBytes(band.bytes)}`}`;
  const totals = target
    ? `build ${formatDuration(target.buildSeconds)} of total ${formatDuration(target.totalSeconds)} (${model.run.harness})`
    : '';
  return [
    head,
    totals,
    ...band.commands.slice(0, 25),
    ...(band.commands.length > 25 ? [`… ${band.commands.length - 25} more`] : []),
  ].filter(Boolean);
}
