// `report` reads each file of a run dir once (issue 40 item 3: one handle per run dir and command), counted by the
// kernel, not by the product: strace's log of every openat of the built CLI. Before the handle, each trace and
// status stream of the warm sample was opened five times (the digest check, the report, the plausibility check,
// why, usage).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

const root = mkdtempSync(path.join(tmpdir(), 'rocm-perf-reads-once-'));
const warm = path.join(root, 'gfx1201-warm');
const before = path.join(root, 'gfx1201-warm-before');
const log = path.join(root, 'openat.log');

beforeAll(async () => {
  await assertCliBuilt();
  for (const name of ['gfx1201-warm', 'gfx1201-warm-before'])
    cpSync(path.join(repoRoot, 'fixtures/runs', name), path.join(root, name), { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * How many times each file directly under DIR was opened in the strace log: every openat of it that did not fail
 * (libuv opens on its worker threads, so a call may be logged `<unfinished ...>` and its result on a later line).
 */
function countOpens(dir: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const match = /openat\(AT_FDCWD, "([^"]+)"/.exec(line);
    if (!match || / = -1 /.test(line) || path.dirname(match[1]!) !== dir) continue;
    const name = path.basename(match[1]!);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

describe('report reads a run dir once', () => {
  it('opens each trace, status stream, metadata and provenance file of the run once, and of the run it is compared with once', async () => {
    const result = await runBuiltCli(['report', warm], {
      root,
      under: ['strace', '-f', '-qq', '-e', 'trace=openat', '-o', log],
    });
    // The warm sample reports with exit 0 or 1 (its loud warnings); a crash or a usage error is neither.
    expect([0, 1], result.stderr).toContain(result.exitCode);
    const opened = countOpens(warm);
    const perTarget = [...opened].filter(([name]) =>
      /^(trace|status|meta|provenance)-.+\.jsonl?$/.test(name),
    );
    // 13 targets, each with a trace, a status stream and a metadata file.
    expect(perTarget.length).toBeGreaterThanOrEqual(39);
    expect(perTarget.filter(([, count]) => count !== 1)).toEqual([]);
    // Why compares with the run before: its files are read through their own handle, each once too.
    const compared = [...countOpens(before)].filter(([name]) => /^(status|meta|provenance)-/.test(name));
    expect(compared.length).toBeGreaterThan(0);
    expect(compared.filter(([, count]) => count !== 1)).toEqual([]);
  });
});
