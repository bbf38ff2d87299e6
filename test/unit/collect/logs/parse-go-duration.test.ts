// Go durations: a table of what Go prints, and the hand-written reader against the grammar as a regular expression
// (the oracle) on 200,000 random strings of the grammar's pieces.
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../../bench/generate-logs.js';
import { parseGoDuration } from '../../../../src/collect/logs/parse-go-duration.js';

const unitMs: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ns: 1e-6,
};
const term = /(\d+(?:\.\d*)?|\.\d+)(h|ms|m|s|us|µs|μs|ns)/y;

function parseGoDurationByPattern(text: string): number | undefined {
  if (text === '0s' || text === '0') return 0;
  let position = /^[-+]/.test(text) ? 1 : 0;
  if (position >= text.length) return undefined;
  let totalMs = 0;
  while (position < text.length) {
    term.lastIndex = position;
    const match = term.exec(text);
    if (match === null) return undefined;
    totalMs += Number(match[1]) * (unitMs[match[2] ?? ''] ?? Number.NaN);
    position = term.lastIndex;
  }
  return Number.isFinite(totalMs) ? (text.startsWith('-') ? -1 : 1) * totalMs : undefined;
}

describe('parseGoDuration', () => {
  it.each([
    ['0s', 0],
    ['81.964986ms', 81.964986],
    ['8.246µs', 0.008246],
    ['8.246μs', 0.008246],
    ['1h2m3.5s', 3_723_500],
    ['-1.5s', -1500],
    ['250ns', 0.00025],
    ['2562047h47m16.854775807s', 9_223_372_036_854.775],
    ['1.5', undefined],
    ['s', undefined],
    ['', undefined],
    ['1h 2m', undefined],
  ])('%s → %s', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it('agrees with the grammar as a regular expression on 200,000 random strings', () => {
    const random = createRandom(5);
    const pieces = [
      '0',
      '1',
      '9',
      '5',
      '.',
      'h',
      'm',
      's',
      'ms',
      'us',
      'µs',
      'μs',
      'ns',
      '-',
      '+',
      'u',
      'x',
      ' ',
    ];
    const differing: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      let text = '';
      for (let n = 1 + Math.floor(random() * 8); n > 0; n--)
        text += pieces[Math.floor(random() * pieces.length)];
      if (!Object.is(parseGoDuration(text), parseGoDurationByPattern(text))) differing.push(text);
    }
    expect(differing).toEqual([]);
  });
});
