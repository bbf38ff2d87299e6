import { describe, expect, it } from 'vitest';
import { toRunExitCode } from '../../../../../src/run/harness/finalize/finalize-run.js';

describe('toRunExitCode', () => {
  it('maps outcomes to exit codes', () => {
    const ok = { status: 'ok' as const, node: 'a', startedAtMs: 0, finishedAtMs: 1 };
    expect(toRunExitCode({ targets: { x: ok } }, false)).toBe(0);
    expect(
      toRunExitCode(
        { targets: { x: ok, y: { status: 'skipped', node: 'a', reason: 'dependency x failed' } } },
        false,
      ),
    ).toBe(1);
    expect(toRunExitCode({ targets: { x: ok } }, true)).toBe(130);
  });
});
