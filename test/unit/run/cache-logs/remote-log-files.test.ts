import { describe, expect, it } from 'vitest';
import { buildRangeCommand } from '../../../../src/run/cache-logs/remote-log-files.js';

describe('buildRangeCommand', () => {
  it('builds byte-range reads', () => {
    expect(buildRangeCommand('/l.log', 10, 25)).toBe("tail -c +11 '/l.log' | head -c 15");
  });
});
