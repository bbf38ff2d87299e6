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
});
