// The simple-sample fast path of parseMetrics against parseSampleLine: on every line of the real scrapes and on
// 20,000 mutated ones, it either declines or gives exactly parseSampleLine's sample.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSimpleSample } from '../../../../src/collect/node-exporter/parse-sample-fast.js';
import { parseSampleLine } from '../../../../src/collect/node-exporter/parse-sample-line.js';
import { createRandom, mutateText } from './mutate-text.js';

const read = (name: string) =>
  readFileSync(new URL(`../../../fixtures/node-exporter/${name}`, import.meta.url), 'utf8');
const samples = [
  ...read('debian-defaults-a.prom').split('\n'),
  ...read('debian-defaults-b.prom').split('\n'),
].filter((line) => line !== '' && !line.startsWith('#'));

/** Lines on which the fast path answers differently from parseSampleLine. */
function findDisagreements(lines: string[]): string[] {
  return lines.filter((line) => {
    const fast = parseSimpleSample(line);
    return (
      fast !== undefined &&
      JSON.stringify([fast, { ...fast.labels }]) !==
        JSON.stringify([parseSampleLine(line), { ...(parseSampleLine(line) as { labels: object }).labels }])
    );
  });
}

describe('parseSimpleSample', () => {
  it('reads every sample line of the real scrapes exactly as parseSampleLine does', () => {
    expect(findDisagreements(samples)).toEqual([]);
    expect(samples.filter((line) => parseSimpleSample(line) !== undefined).length).toBeGreaterThan(
      samples.length * 0.95,
    );
  });

  it('declines or agrees on 20,000 mutated lines', () => {
    const random = createRandom(20260315);
    const mutated = Array.from(
      { length: 20_000 },
      (_, index) => mutateText(samples[index % samples.length] ?? '', random).split('\n')[0] ?? '',
    );
    expect(findDisagreements(mutated)).toEqual([]);
  });

  it('keeps labels in a null-prototype record and declines escapes, timestamps and extra blanks', () => {
    const sample = parseSimpleSample('x{__proto__="a",b="c"} 1e3');
    expect(sample?.value).toBe(1000);
    expect(Object.getPrototypeOf(sample?.labels)).toBeNull();
    expect(sample?.labels.__proto__).toBe('a');
    for (const line of ['x{a="b\\"c"} 1', 'x 1 1700000000000', 'x  1', 'x{a = "b"} 1', '{"x.y"} 1'])
      expect(parseSimpleSample(line)).toBeUndefined();
  });
});
