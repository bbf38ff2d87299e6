// The label rule for Gantt bars: a target's name is drawn inside its widest band only, from the band's left edge,
// and only as much of it as fits: elided with `…` when the band is too narrow for the whole name, dropped when
// fewer than MIN_LABEL_CHARS would show. Widths are estimated (no text metrics server-side) with a per-character
// width above the UI fonts' average, so an estimate that fits also fits when drawn. A label never leaves its band,
// and bands of one lane do not overlap, so no two labels in a lane overlap.

export const BAR_LABEL_FONT_PX = 11;
export const BAR_LABEL_PADDING_PX = 3;
/** Estimated px per character at BAR_LABEL_FONT_PX (system-ui averages ≈ 6.1 px for lower-case names). */
export const BAR_LABEL_CHAR_PX = 6.8;
export const MIN_LABEL_CHARS = 3;

/** The text to draw in a band `widthPx` wide, or undefined when not even MIN_LABEL_CHARS and `…` fit. */
export function fitBarLabel(text: string, widthPx: number): string | undefined {
  const fits = Math.floor((widthPx - 2 * BAR_LABEL_PADDING_PX) / BAR_LABEL_CHAR_PX);
  if (fits >= text.length) return text;
  if (fits < MIN_LABEL_CHARS + 1) return undefined;
  return `${text.slice(0, fits - 1)}…`;
}

/** The estimated width of a label as drawn, padding included. */
export function estimateBarLabelWidthPx(text: string): number {
  return text.length * BAR_LABEL_CHAR_PX + 2 * BAR_LABEL_PADDING_PX;
}
