// Colours and geometry shared by the chart (SVG and page). Colour follows the builder everywhere: its lane's
// bars, its CPU line (solid) and its memory line (dashed). Phases are told apart by shade, not hue.

// Tableau 10 without its red (red marks the critical path).
export const BUILDER_PALETTE = [
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

export const LANE_HEIGHT_PX = 46;
export const USAGE_HEIGHT_PX = 190;
export const CHART_WIDTH_PX = 1280;

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
}

/** Chart size for a number of lanes: lanes grow the Gantt, the usage plot keeps its height. */
export function buildChartLayout(laneCount: number, legendRows = 3): ChartLayout {
  const ganttTopPx = 58 + legendRows * 24;
  const ganttHeightPx = Math.max(1, laneCount) * LANE_HEIGHT_PX;
  const usageTopPx = ganttTopPx + ganttHeightPx + 40;
  return {
    width: CHART_WIDTH_PX,
    height: usageTopPx + USAGE_HEIGHT_PX + 74,
    ganttTopPx,
    ganttHeightPx,
    usageTopPx,
  };
}
