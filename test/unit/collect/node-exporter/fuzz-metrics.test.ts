import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMetrics } from '../../../../src/collect/node-exporter/parse-metrics.js';
import { createRandom, mutateText } from './mutate-text.js';

const lines = readFileSync(
  new URL('../../../fixtures/node-exporter/debian-defaults-a.prom', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter(Boolean);

describe('parseMetrics fuzz: 10,000 mutated lines of a real scrape', () => {
  const random = createRandom(20260301);
  const mutated = Array.from({ length: 10_000 }, (_, index) =>
    mutateText(lines[index % lines.length] ?? '', random),
  );

  it('never throws and accounts for every line, one at a time', () => {
    let rejected = 0;
    const failures: string[] = [];
    mutated.forEach((line, index) => {
      const { stats, families } = parseMetrics(`${line}\n`, `case ${index}`);
      const samples = [...families.values()].reduce((sum, family) => sum + family.samples.length, 0);
      if (stats.lines !== stats.records + stats.skipped + stats.rejected || samples !== stats.records) {
        failures.push(`case ${index}: ${JSON.stringify(line)} → ${JSON.stringify(stats)}`);
      }
      rejected += stats.rejected;
    });
    expect(failures).toEqual([]);
    expect(rejected).toBeGreaterThan(1000);
  });

  it('accounts for every line of the whole mutated document', () => {
    const text = `${mutated.join('\n')}\n`;
    const { stats } = parseMetrics(text, 'fuzz');
    expect(stats.lines).toBe(text.split('\n').length - 1);
    expect(stats.records + stats.skipped + stats.rejected).toBe(stats.lines);
    expect(stats.rejectedExamples.length).toBeLessThanOrEqual(5);
  });
});
