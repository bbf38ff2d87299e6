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
    expect(text).toBe('# generated\nbuild a 10\nbuild b 20\ncache b 5\n');
    expect(parseTargetCosts(text, 'x').errors).toEqual([]);
  });
});
