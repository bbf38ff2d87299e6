import { describe, expect, it } from 'vitest';
import type { CauseShare } from '../../../src/diff/makespan-explanation.js';
import { renderShareBars } from '../../../src/diff/render-run-diff-html.js';

// diff.html's chart of the makespan change by cause. Its axis must cover the causes' own range: when every cause
// made B faster, the bars take the whole plot, not its left half (issue 36 item 3: the right half was empty).

const other = (shareSeconds: number): CauseShare => ({
  kind: 'other',
  shareSeconds,
  standardErrorSeconds: null,
  sentence: 'other',
  modelledSeconds: 0,
  leftOut: [],
});
const build = (target: string, shareSeconds: number): CauseShare => ({
  kind: 'build',
  target,
  shareSeconds,
  standardErrorSeconds: null,
  sentence: target,
  buildSeconds: { a: 1, b: 1, delta: 0, pct: 0 },
  uploadBytes: { a: 1, b: 1, delta: 0, pct: 0 },
  onCriticalPath: false,
});

/** The horizontal extent of the bars and the zero line, read back from the SVG, and the plot's own edges. */
function readExtent(svg: string): { left: number; right: number; zero: number; bars: [number, number][] } {
  const bars = [...svg.matchAll(/<rect [^>]*x="([\d.]+)"[^>]*width="([\d.]+)"/g)].map(
    ([, x, w]) => [Number(x), Number(x) + Number(w)] as [number, number],
  );
  const zero = Number(/<line x1="([\d.]+)"/.exec(svg)![1]);
  return {
    bars,
    zero,
    left: Math.min(zero, ...bars.map(([a]) => a)),
    right: Math.max(zero, ...bars.map(([, b]) => b)),
  };
}

/** The plot: from the labels' column (text-anchor end at x − 6) to the values' column (x − 6). */
function readPlot(svg: string): { from: number; to: number } {
  const from = Number(/<text x="([\d.]+)" [^>]*text-anchor="end"/.exec(svg)![1]) + 6;
  const valueXs = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+">/g)].map(([, x]) => Number(x));
  return { from, to: Math.max(...valueXs) - 6 };
}

describe('renderShareBars: the axis covers the data', () => {
  it.each([
    [
      'every cause negative (the shipped cold → warm diff)',
      [build('pytorch', -27), build('vllm', -2.94), other(-0.006)],
    ],
    ['every cause positive', [build('pytorch', 12), build('vllm', 3), other(0.5)]],
    ['mixed signs', [build('pytorch', -8), build('vllm', 3), other(0.2)]],
  ])('%s: the bars and zero line span the whole plot, each bar in proportion', (_, causes) => {
    const svg = renderShareBars(causes);
    const { left, right, zero, bars } = readExtent(svg);
    const plot = readPlot(svg);
    // Within 1.5 px: a bar is at least 1 px wide, so a share of a few ms can poke out by up to 1 px.
    expect(Math.abs(left - plot.from)).toBeLessThan(1.5);
    expect(Math.abs(right - plot.to)).toBeLessThan(1.5);
    // Each bar runs from zero, its length in proportion to its share (px per second alike for all).
    const scale =
      (plot.to - plot.from) /
      (Math.max(0, ...causes.map((c) => c.shareSeconds)) - Math.min(0, ...causes.map((c) => c.shareSeconds)));
    causes.forEach((cause, k) => {
      const [a, b] = bars[k]!;
      expect(Math.abs(Math.max(1, Math.abs(cause.shareSeconds) * scale) - (b - a))).toBeLessThan(0.2);
      expect(Math.abs((cause.shareSeconds >= 0 ? a : b) - zero)).toBeLessThan(1.5);
    });
  });
});
