import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { assertCliBuilt, runBuiltCli } from '../helpers/run-built-cli.js';

// Usage errors as users see them from the built CLI: exit 2, one `error:` line naming what is wrong, one `hint:`
// line, nothing on stdout, no stack.

let temp: TempDir;
beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('usage-errors');
});
afterAll(() => temp?.remove());

describe('a run dir that does not exist', () => {
  it.each([
    [
      ['report', '/nonexistent'],
      /^error: \/nonexistent: no such run dir \(looked in the current directory and under /,
    ],
    [['diff', '/nonexistent', '/nonexistent-too'], /^error: \/nonexistent: no such run dir/],
    [['export', '--perfetto', '/nonexistent'], /^error: \/nonexistent: no such run dir/],
    [
      ['costs', '--from', '/nonexistent'],
      /^error: --from \/nonexistent: no such run dir \(looked at \/nonexistent\)$/,
    ],
    [['plan', '--from-run', '/nonexistent'], /^error: --from-run \/nonexistent: no such run dir/],
    [['serve', '--root', '/nonexistent', '--port', '0'], /^error: --root \/nonexistent: no such directory$/],
  ])('%j: one error line and a hint, exit 2', async (args, message) => {
    const result = await runBuiltCli(args, { root: temp.path });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(message);
    expect(lines[1]).toMatch(/^hint: pass (a run dir|the runs root)/);
  });
});

describe('a bad flag value', () => {
  it('names the flag, the value and the fix, exit 2, before reading any file', async () => {
    const result = await runBuiltCli(
      ['cold', '--sample-interval-ms', 'abc', '--fleet', '/nonexistent.yaml'],
      {
        root: temp.path,
      },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([
      'error: --sample-interval-ms abc: expected a positive number of milliseconds. Use e.g. --sample-interval-ms 2000.',
      'hint: `rocm-perf cold --help` lists every flag',
    ]);
  });
});
