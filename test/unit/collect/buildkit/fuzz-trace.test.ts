import { describe, expect, it } from 'vitest';
import { parseBuildkitTrace } from '../../../../src/collect/index.js';
import { ParseError } from '../../../../src/shared/errors.js';
import { createRandom, mutateText } from '../node-exporter/mutate-text.js';
import { readRealStubs, toJaegerDocument, toOtlpDocument, toSpanStreamText } from './real-trace.js';

// 10,000 mutated inputs: single span objects of the real stream, small streams, and Jaeger/OTLP documents
// generated from it, damaged at the text level or with a JSON value swapped for another type.

const stubs = readRealStubs();
const seeds: string[] = [
  ...stubs.map((stub) => toSpanStreamText([stub])),
  toSpanStreamText(stubs.slice(40, 46)),
  JSON.stringify(toJaegerDocument(stubs.slice(44, 50))),
  JSON.stringify(toOtlpDocument(stubs.slice(44, 50))),
];
const oddValues: unknown[] = [
  null,
  0,
  -1,
  1e308,
  '',
  'x',
  true,
  [],
  {},
  '0000000000000000',
  '2024-13-45T99:99:99Z',
  [1, 2],
];

function swapValue(text: string, random: () => number): string {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return text;
  }
  const holders: Record<string, unknown>[] = [];
  const walk = (value: unknown) => {
    if (typeof value !== 'object' || value === null) return;
    holders.push(value as Record<string, unknown>);
    Object.values(value).forEach(walk);
  };
  walk(document);
  const holder = holders[Math.floor(random() * holders.length)];
  const keys = holder === undefined ? [] : Object.keys(holder);
  const key = keys[Math.floor(random() * keys.length)];
  if (holder !== undefined && key !== undefined)
    holder[key] = oddValues[Math.floor(random() * oddValues.length)];
  return JSON.stringify(document);
}

describe('parseBuildkitTrace fuzz', () => {
  it('10,000 mutated inputs: only ParseError is thrown, and every span object is accounted for', () => {
    const random = createRandom(7331);
    const outcomes = { parsed: 0, parseErrors: 0 };
    const failures: string[] = [];
    for (let index = 0; index < 10_000; index += 1) {
      const seed = seeds[index % seeds.length] ?? '';
      const input = random() < 0.5 ? mutateText(seed, random) : swapValue(seed, random);
      let result: ReturnType<typeof parseBuildkitTrace>;
      try {
        result = parseBuildkitTrace(input, {
          source: `case ${index}`,
          target: 'test-go',
          cacheRefs: ['reg/x/cache:a'],
          imageRefs: ['reg/x/img:1'],
        });
      } catch (error) {
        if (!(error instanceof ParseError) || error.source !== `case ${index}`)
          failures.push(`case ${index} threw ${String(error)}`);
        outcomes.parseErrors += 1;
        continue;
      }
      const { stats, trace } = result;
      if (stats.lines !== stats.records + stats.skipped + stats.rejected)
        failures.push(`case ${index}: unaccounted span objects`);
      if (!(Number.isFinite(trace.totalSeconds) && trace.totalSeconds >= 0))
        failures.push(`case ${index}: totalSeconds ${trace.totalSeconds}`);
      if (trace.totalSteps !== trace.steps.length) failures.push(`case ${index}: totalSteps`);
      outcomes.parsed += 1;
    }
    expect(failures).toEqual([]);
    expect(outcomes.parsed).toBeGreaterThan(3000);
    expect(outcomes.parseErrors).toBeGreaterThan(100);
  });
});
