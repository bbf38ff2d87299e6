// The label rule for Gantt bars: a target's name is drawn inside its widest band only, from the band's left edge,
// and only as much of it as fits: elided with `…` when the band is too narrow for the whole name, dropped when
// fewer than MIN_LABEL_CHARS would show. Widths are estimated (no text metrics server-side) with a per-character
// width above the UI fonts' average, so an estimate that fits also fits when drawn. A label never leaves its band,
// and bands of one lane do not overlap, so no two labels in a lane overlap.

export const BAR_LABEL_FONT_PX = 11;
export const BAR_LABEL_PADDING_PX = 3;
/** Estimated px per character at BAR_LABEL_FONT_PX (system-ui averages ≈ 6.1 px for lower-case names). */
const BAR_LABEL_CHAR_PX = 6.8;
/** `…` is up to 1 em wide in the UI fonts. */
const BAR_LABEL_ELLIPSIS_PX = 11;
/** @internal */
export const MIN_LABEL_CHARS = 3;

/** The text to draw in a band `widthPx` wide, or undefined when not even MIN_LABEL_CHARS and `…` fit. */
export function fitBarLabel(text: string, widthPx: number): string | undefined {
  const roomPx = widthPx - 2 * BAR_LABEL_PADDING_PX;
  if (text.length * BAR_LABEL_CHAR_PX <= roomPx) return text;
  const fits = Math.floor((roomPx - BAR_LABEL_ELLIPSIS_PX) / BAR_LABEL_CHAR_PX);
  return fits < MIN_LABEL_CHARS ? undefined : `${text.slice(0, fits)}…`;
}

/** The estimated width of a label as drawn, padding included. @internal */
export function estimateBarLabelWidthPx(text: string): number {
  const elided = text.endsWith('…');
  const chars = elided ? text.length - 1 : text.length;
  return chars * BAR_LABEL_CHAR_PX + (elided ? BAR_LABEL_ELLIPSIS_PX : 0) + 2 * BAR_LABEL_PADDING_PX;
}
