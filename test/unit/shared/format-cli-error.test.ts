import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/shared/errors.js';
import { BUG_LINE, formatCliError } from '../../../src/shared/format-cli-error.js';

// What the top-level catch prints: a known error or a machine's fault is `error:` + `hint:`, exit 2, no stack; only
// a real bug gets its stack and the "this is a bug" line.

describe('formatCliError', () => {
  it('a known error: one error line and its hint', () => {
    const report = formatCliError(new UsageError('--port abc: bad', { hint: 'use --port 8090' }), {
      debug: false,
    });
    expect(report).toEqual({ lines: ['error: --port abc: bad', 'hint: use --port 8090'], exitCode: 2 });
  });

  it('a full disk no command named: one line and a hint, exit 2, not a bug', () => {
    const error = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      syscall: 'open',
      path: '/runs/r1/run.log',
    });
    const report = formatCliError(error, { debug: false });
    expect(report.exitCode).toBe(2);
    expect(report.lines).toEqual([
      'error: /runs/r1/run.log: cannot open: no space left on the device holding /runs/r1/run.log',
      'hint: free some space there (df -h /runs/r1/run.log) or choose another place',
    ]);
  });

  it('a bug: its stack and the request to report it', () => {
    const report = formatCliError(new TypeError('cannot read x of undefined'), { debug: false });
    expect(report.exitCode).toBe(2);
    expect(report.lines[0]).toMatch(/^TypeError: cannot read x of undefined\n\s+at /);
    expect(report.lines[1]).toBe(BUG_LINE);
  });

  it('--debug adds the stack of a known error', () => {
    const report = formatCliError(new UsageError('bad'), { debug: true });
    expect(report.lines[1]).toMatch(/^UsageError: bad\n\s+at /);
  });
});
