import { describe, expect, it } from 'vitest';
import { findNearest, measureEditDistance, renderDidYouMean } from '../../../src/shared/find-nearest.js';

// "Did you mean": near misses by edits (a swap counts once), else by containment; nothing for a far guess.

const TARGETS = ['pytorch', 'pytorch-wheel', 'triton-wheel', 'vllm-wheel', 'wheels', 'xformers-wheel'];

describe('findNearest', () => {
  it.each([
    ['pytroch', ['pytorch']],
    ['PyTorch', ['pytorch']],
    ['vlm-wheel', ['vllm-wheel']],
    ['wheel', ['wheels']],
    ['torch', ['pytorch', 'pytorch-wheel']],
    ['nope', []],
    ['x', []],
  ])('%s → %j', (name, expected) => {
    expect(findNearest(name, TARGETS)).toEqual(expected);
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(measureEditDistance('link_mpbs', 'link_mbps')).toBe(1);
    expect(measureEditDistance('abc', 'abc')).toBe(0);
    expect(measureEditDistance('', 'abc')).toBe(3);
  });

  it('renders one or several names, or nothing', () => {
    expect(renderDidYouMean('pytroch', TARGETS)).toBe(' Did you mean `pytorch`?');
    expect(renderDidYouMean('torch', TARGETS)).toBe(' Did you mean `pytorch` or `pytorch-wheel`?');
    expect(renderDidYouMean('nope', TARGETS)).toBe('');
  });
});
