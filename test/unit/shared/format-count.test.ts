import { describe, expect, it } from 'vitest';
import { formatCount } from '../../../src/shared/format-units.js';

// formatCount writes exact counts in warnings (bytes run.json recorded, lines rejected): en-US thousands separators,
// whatever the machine's locale; the truth is Intl's own toLocaleString('en-US'), which it no longer calls for a
// whole count.
describe('formatCount', () => {
  it('groups thousands with commas and writes small and zero counts as they are', () => {
    expect(formatCount(3_891_862)).toBe('3,891,862');
    expect(formatCount(200_000)).toBe('200,000');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(0)).toBe('0');
  });

  it('agrees with toLocaleString("en-US") on counts up to a terabyte', () => {
    for (const n of [
      1, 12, 123, 1234, 98_765, 100_000, 7_777_994, 1_099_511_627_776, -1, -1234, -987_654_321,
    ])
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });
});
