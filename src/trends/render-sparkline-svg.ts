// A small inline SVG line of a metric across runs: gaps (null) break the line, flagged points are red dots, the
import { escapeHtml } from '../shared/escape-html.js';
// last value is a dot. Pure; no script, so it renders under serve's CSP and from a file.

export interface SparklineOptions {
  values: readonly (number | null)[];
  flagged?: readonly boolean[];
  /** Accessible title, e.g. `pytorch build seconds`. */
  title: string;
  width?: number;
  height?: number;
}

const PAD = 3;

function toScale(
  values: readonly (number | null)[],
  width: number,
  height: number,
): (i: number, v: number) => [number, number] {
  const known = values.filter((v): v is number => v !== null);
  const [min, max] = [Math.min(0, ...known), Math.max(...known, 1e-9)];
  const stepX = values.length > 1 ? (width - 2 * PAD) / (values.length - 1) : 0;
  return (i, v) => [
    round(PAD + i * stepX),
    round(height - PAD - ((v - min) / (max - min || 1)) * (height - 2 * PAD)),
  ];
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Consecutive non-null runs of points as polyline point strings. */
function toSegments(
  values: readonly (number | null)[],
  scale: (i: number, v: number) => [number, number],
): string[] {
  const segments: string[][] = [];
  let current: string[] | undefined;
  values.forEach((v, i) => {
    if (v === null) current = undefined;
    else {
      if (!current) segments.push((current = []));
      current.push(scale(i, v).join(','));
    }
  });
  return segments.map((s) => s.join(' '));
}

export function renderSparklineSvg({
  values,
  flagged = [],
  title,
  width = 160,
  height = 32,
}: SparklineOptions): string {
  const scale = toScale(values, width, height);
  const lines = toSegments(values, scale).map((points) =>
    points.includes(' ')
      ? `<polyline points="${points}" fill="none" stroke="#3b6ea8" stroke-width="1.5"/>`
      : '',
  );
  const dots = values.flatMap((v, i) => {
    if (v === null) return [];
    const [x, y] = scale(i, v);
    if (flagged[i])
      return [`<circle cx="${x}" cy="${y}" r="3" fill="#c0392b"><title>regression</title></circle>`];
    return i === values.length - 1 || values.length === 1
      ? [`<circle cx="${x}" cy="${y}" r="2" fill="#3b6ea8"/>`]
      : [];
  });
  return `<svg class="spark" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}"><title>${escapeHtml(title)}</title>${lines.join('')}${dots.join('')}</svg>`;
}
