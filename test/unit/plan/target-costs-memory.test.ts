import { describe, expect, it } from 'vitest';
import { createRunFile, createTrace, ok } from './cost-run-fixture.js';
import { parseTargetCosts, renderTargetCosts } from '../../../src/config/parse-target-costs.js';
import { deriveTargetCosts } from '../../../src/plan/derive-target-costs.js';
import { chooseCosts } from '../../../src/plan/index.js';

// The target-costs `memory <target> <bytes>` line: read, rendered back, learned by `costs --from` (the largest
// peak over the runs, never the median) and handed to the planner.

describe('target-costs memory lines', () => {
  it('reads a memory line and the planner’s cost input carries it', () => {
    const { costs, errors } = parseTargetCosts('build a 10\ncache a 5\nmemory a 3221225472\n', 'costs');
    expect(errors).toEqual([]);
    expect(costs.get('a')).toMatchObject({ memoryBytes: 3221225472, memoryLine: 3 });
    expect(chooseCosts(costs, 'cold').costs.get('a')?.memoryBytes).toBe(3221225472);
  });

  it.each([
    [
      'memory a 0',
      'costs:1: memory a: `0` is not a memory peak. Fix: write the peak in bytes (a positive integer), or remove the line.',
    ],
    [
      'memory a 1.5',
      'costs:1: memory a: `1.5` is not a valid number of bytes. Fix: write a non-negative integer.',
    ],
    ['memory-spread a 0.1 3', 'costs:1: cannot read `memory-spread a 0.1 3`.'],
  ])('refuses `%s`', (line, message) => {
    const { errors } = parseTargetCosts(`${line}\n`, 'costs');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
  });

  it('renders memory lines after the others', () => {
    const text = renderTargetCosts(
      new Map([['a', { buildSeconds: 10, cacheBytes: 5, memoryBytes: 42 }]]),
      [],
    );
    expect(text).toBe('build a 10\ncache a 5\nmemory a 42\n');
  });

  it('costs --from keeps the largest peak any run measured, and the old figure where no run measured one', () => {
    const run = (stamp: string) => ({
      ...createRunFile({ harness: 'warm', targets: { a: ok('fast'), b: ok('fast') } }),
      stamp,
    });
    const traces = new Map([
      ['a', createTrace('a', { buildSeconds: 10 })],
      ['b', createTrace('b', { buildSeconds: 10 })],
    ]);
    const base = {
      warmBuildSeconds: undefined,
      cacheBytes: 1,
      buildLine: 1,
      warmBuildLine: undefined,
      cacheLine: 2,
    };
    const current = new Map([
      ['a', { ...base, buildSeconds: 5 }],
      ['b', { ...base, buildSeconds: 5, memoryBytes: 777 }],
    ]);
    const derived = deriveTargetCosts({
      runs: [
        { run: run('s1'), traces, memoryPeaks: new Map([['a', 2_000]]) },
        { run: run('s2'), traces, memoryPeaks: new Map([['a', 5_000]]) },
        { run: run('s3'), traces, memoryPeaks: new Map([['a', 3_000]]) },
      ],
      current,
    });
    expect(derived.costs.get('a')?.memoryBytes).toBe(5_000);
    expect(derived.costs.get('b')?.memoryBytes).toBe(777);
    expect(derived.updated.memory).toEqual(['a']);
  });
});
