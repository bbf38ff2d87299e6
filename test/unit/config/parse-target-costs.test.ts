import { describe, expect, it } from 'vitest';
import { parseTargetCosts, renderTargetCosts } from '../../../src/config/parse-target-costs.js';

describe('parseTargetCosts', () => {
  it('reads build and cache lines, comments and blanks', () => {
    const { costs, errors } = parseTargetCosts(
      '# header\nbuild a 60\n\ncache a 1000 # trailing\nbuild b 1.5\n',
      'costs',
    );
    expect(errors).toEqual([]);
    expect(Object.fromEntries(costs)).toEqual({
      a: { buildSeconds: 60, cacheBytes: 1000, buildLine: 2, cacheLine: 4 },
      b: { buildSeconds: 1.5, cacheBytes: undefined, buildLine: 5, cacheLine: undefined },
    });
  });

  it.each([
    ['bild a 60', /costs:1: cannot read `bild a 60`\. Fix: write `build <target> <seconds>`/],
    ['build a sixty', /costs:1: build a: `sixty` is not a valid number of seconds/],
    [
      'cache a 1.5',
      /costs:1: cache a: `1.5` is not a valid number of bytes\. Fix: write a non-negative integer/,
    ],
    ['build a -1', /costs:1: build a: `-1`/],
    ['build a 1\nbuild a 2', /costs:2: build a: given again \(first on line 1\)/],
  ])('names the line for %j', (text, pattern) => {
    const { errors } = parseTargetCosts(text, 'costs');
    expect(errors.join('\n')).toMatch(pattern);
  });

  it('reads, writes and checks `image` lines (a cold run’s upload) and their spread', () => {
    const text = renderTargetCosts(
      new Map([
        [
          'a',
          { buildSeconds: 10, cacheBytes: 5000, imageBytes: 1200, imageSpread: { sigma: 0.04, runs: 3 } },
        ],
      ]),
      [],
    );
    expect(text).toBe('build a 10\ncache a 5000\nimage a 1200\nimage-spread a 0.04 3\n');
    const { costs, errors } = parseTargetCosts(text, 'costs');
    expect(errors).toEqual([]);
    expect(costs.get('a')).toMatchObject({
      imageBytes: 1200,
      imageLine: 3,
      imageSpread: { sigma: 0.04, runs: 3, line: 4 },
    });
    expect(parseTargetCosts('image a 1.5', 'costs').errors).toEqual([
      'costs:1: image a: `1.5` is not a valid number of bytes. Fix: write a non-negative integer.',
    ]);
  });

  it('round-trips through renderTargetCosts', () => {
    const text = renderTargetCosts(
      new Map([
        ['b', { buildSeconds: 20, cacheBytes: 5 }],
        ['a', { buildSeconds: 10.4, cacheBytes: undefined }],
      ]),
      ['generated'],
    );
    expect(text).toBe('# generated\nbuild a 10.4\nbuild b 20\ncache b 5\n');
    expect(parseTargetCosts(text, 'x').errors).toEqual([]);
  });

  it('keeps seconds precise enough that no target that took time becomes free (issue 28: 0.48 s was written 0)', () => {
    const text = renderTargetCosts(
      new Map([
        ['fast', { buildSeconds: 0.48, warmBuildSeconds: 0.0004, cacheBytes: undefined }],
        ['mid', { buildSeconds: 7.254, warmBuildSeconds: 42.149, cacheBytes: undefined }],
        ['slow', { buildSeconds: 2331.6, cacheBytes: undefined }],
      ]),
      ['generated'],
    );
    expect(text).toBe(
      '# generated\nbuild fast 0.48\nbuild mid 7.25\nbuild slow 2332\nwarm-build fast 0.001\nwarm-build mid 42.1\n',
    );
    const parsed = parseTargetCosts(text, 'x');
    expect(parsed.costs.get('fast')).toMatchObject({ buildSeconds: 0.48, warmBuildSeconds: 0.001 });
  });

  it('reads and writes spread lines: sigma of ln(value) and the count of runs behind each median (issue 29)', () => {
    const text = renderTargetCosts(
      new Map([
        [
          'a',
          {
            buildSeconds: 60,
            warmBuildSeconds: 4,
            cacheBytes: 1000,
            buildSpread: { sigma: 0.08123, runs: 5 },
            warmBuildSpread: { sigma: 0.2, runs: 3 },
            cacheSpread: { sigma: 0, runs: 1 },
          },
        ],
      ]),
      ['generated'],
    );
    expect(text).toBe(
      '# generated\nbuild a 60\nwarm-build a 4\ncache a 1000\nbuild-spread a 0.081 5\nwarm-build-spread a 0.2 3\ncache-spread a 0 1\n',
    );
    const parsed = parseTargetCosts(text, 'x');
    expect(parsed.errors).toEqual([]);
    expect(parsed.costs.get('a')).toMatchObject({
      buildSpread: { sigma: 0.081, runs: 5, line: 5 },
      warmBuildSpread: { sigma: 0.2, runs: 3, line: 6 },
      cacheSpread: { sigma: 0, runs: 1, line: 7 },
    });
  });

  it.each([
    [
      'build-spread a wide 3',
      /costs:1: build-spread a: `wide` is not a valid spread\. Fix: write the log-scale deviation/,
    ],
    [
      'cache-spread a 0.1 0',
      /costs:1: cache-spread a: `0` is not a valid count of runs\. Fix: write a whole number/,
    ],
    ['build-spread a 0.1 2.5', /costs:1: build-spread a: `2.5` is not a valid count of runs/],
    [
      'build-spread a 0.1 3\nbuild-spread a 0.2 4',
      /costs:2: build-spread a: given again \(first on line 1\)/,
    ],
    [
      'build-spread a 0.1',
      /costs:1: cannot read `build-spread a 0.1`.*`<kind>-spread <target> <sigma> <runs>`/,
    ],
  ])('names the spread line for %j', (text, pattern) => {
    expect(parseTargetCosts(text, 'costs').errors.join('\n')).toMatch(pattern);
  });
});
