// Colours and geometry shared by the chart (SVG and page). Colour follows the builder everywhere: its lane's
// bars, its CPU line (solid) and its memory line (dashed). Phases are told apart by shade, not hue.

// Tableau 10 without its red (red marks the critical path).
const BUILDER_PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#b07aa1',
  '#76b7b2',
  '#9c755f',
  '#edc948',
  '#ff9da7',
  '#499894',
  '#86bcb6',
  '#8cd17d',
  '#a0cbe8',
] as const;

export const SETUP_EXPORT_COLOUR = '#c9c9c9';
export const CRITICAL_COLOUR = '#c0392b';
export const PLAN_COLOUR = '#555555';

export const PHASE_LEGEND = {
  steps: 'phase: steps',
  upload: 'phase: upload',
  setupExport: 'phase: setup/export',
} as const;

const LANE_HEIGHT_PX = 46;
const USAGE_HEIGHT_PX = 190;
/** The usage plot grows by this much per lane over 10 lanes: 24 nodes draw 48 lines on it. */
const USAGE_PX_PER_EXTRA_LANE = 8;

function buildUsageHeightPx(laneCount: number): number {
  return USAGE_HEIGHT_PX + Math.max(0, laneCount - 10) * USAGE_PX_PER_EXTRA_LANE;
}
/** @internal */
export const CHART_WIDTH_PX = 1280;
/** The plots' margins (lane labels on the left, plan-line labels on the right). */
export const PLOT_LEFT_PX = 150;
export const PLOT_RIGHT_PX = 110;

export function builderColour(index: number): string {
  return BUILDER_PALETTE[index % BUILDER_PALETTE.length]!;
}

/** Mix a #rrggbb colour with white: amount 0 = unchanged, 1 = white. */
export function lighten(hex: string, amount: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number): number => {
    const c = (value >> shift) & 0xff;
    return Math.round(c + (255 - c) * amount);
  };
  return `#${[16, 8, 0].map((s) => channel(s).toString(16).padStart(2, '0')).join('')}`;
}

export interface ChartLayout {
  width: number;
  height: number;
  ganttTopPx: number;
  ganttHeightPx: number;
  usageTopPx: number;
  usageHeightPx: number;
}

/** Legends start under the title, at the plot's left edge, with a fixed width so they wrap the same everywhere. */
export const LEGEND_TOP_PX = 54;
/** ECharts steps a wrapped legend row by the item height plus itemGap (10 + 18). */
export const LEGEND_ROW_PX = 28;
export const LEGEND_LEFT_PX = 150;
export const LEGEND_WIDTH_PX = CHART_WIDTH_PX - LEGEND_LEFT_PX - 40;
export const LEGEND_ITEM = { widthPx: 16, heightPx: 10, gapPx: 18, fontPx: 11, textGapPx: 5 } as const;

/**
 * Rows a wrapping ECharts legend takes for these entries in `widthPx`: the same greedy line breaking as
 * ECharts' box layout, with text widths over-estimated (0.62 em per character) so the real legend never takes more
 * rows than this — the Gantt below it is placed from this count.
 */
export function countLegendRows(names: readonly string[], widthPx = LEGEND_WIDTH_PX): number {
  let rows = names.length > 0 ? 1 : 0;
  let x = 0;
  for (const name of names) {
    const itemPx =
      LEGEND_ITEM.widthPx + LEGEND_ITEM.textGapPx + Math.ceil(name.length * LEGEND_ITEM.fontPx * 0.62);
    if (x > 0 && x + itemPx > widthPx) {
      rows += 1;
      x = 0;
    }
    x += itemPx + LEGEND_ITEM.gapPx;
  }
  return rows;
}

/**
 * Chart size for a number of lanes and legend rows: every lane gets LANE_HEIGHT_PX (the minimum at which a bar,
 * its label, its plan strip and the two-line lane label stay legible), so more nodes grow the Gantt and the chart;
 * the usage plot keeps its height.
 */
export function buildChartLayout(laneCount: number, legendRows = 3): ChartLayout {
  const ganttTopPx = LEGEND_TOP_PX + 4 + legendRows * LEGEND_ROW_PX;
  const ganttHeightPx = Math.max(1, laneCount) * LANE_HEIGHT_PX;
  const usageTopPx = ganttTopPx + ganttHeightPx + 40;
  const usageHeightPx = buildUsageHeightPx(laneCount);
  return {
    width: CHART_WIDTH_PX,
    height: usageTopPx + usageHeightPx + 74,
    usageHeightPx,
    ganttTopPx,
    ganttHeightPx,
    usageTopPx,
  };
}
