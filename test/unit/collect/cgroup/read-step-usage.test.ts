// step-usage.jsonl is untrusted run-dir input: its one reader keeps good polls, counts gaps, rejects (and counts)
// a bad or truncated line, and stops on a file of another version.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readStepUsage } from '../../../../src/collect/cgroup/read-step-usage.js';

const dir = mkdtempSync(path.join(tmpdir(), 'read-step-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const poll = (tsMs: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    version: 1,
    node: 'forge',
    tsMs,
    ok: true,
    cgroup: 'v1',
    present: true,
    groups: [{ id: 'c1', files: { 'cpuacct.usage': '5\n' }, cmdlines: ['make'] }],
    ...extra,
  });

function write(name: string, lines: string[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, lines.join('\n'));
  return file;
}

describe('readStepUsage', () => {
  it('keeps polls, counts gaps per node, rejects a bad line and a non-increasing time, skips a truncated last line', async () => {
    const file = write('mixed.jsonl', [
      poll(1000),
      JSON.stringify({ version: 1, node: 'forge', tsMs: 1500, ok: false, error: 'timed out' }),
      poll(2000, { cgroup: 'v3' }),
      poll(1200),
      poll(3000),
      poll(4000).slice(0, 40),
    ]);
    const read = await readStepUsage(file);
    expect(read.polls.map((p) => p.tsMs)).toEqual([1000, 3000]);
    expect([...read.gaps]).toEqual([['forge', { count: 1, firstError: 'timed out' }]]);
    expect(read.stats.records).toBe(3);
    expect(read.stats.rejected).toBe(2);
    expect(read.stats.rejectedExamples.map((r) => [r.line, r.reason])).toEqual([
      [3, expect.stringMatching(/^cgroup: Invalid option: expected one of "v1"\|"v2"/) as string],
      [4, expect.stringMatching(/^tsMs 1200 of forge is not after its previous poll \(1500\)/) as string],
    ]);
    // The sampler killed mid-write: the last line has no newline, and is counted, never read as a poll.
    expect(read.stats.skippedByReason).toEqual({ 'unterminated last line': 1 });
  });

  it('a file of another version is an error naming it', async () => {
    const file = write('v2.jsonl', [poll(1000, { version: 2 })]);
    await expect(readStepUsage(file)).rejects.toThrow(
      /v2\.jsonl: line 1: step-usage version 2, this rocm-perf reads version 1/,
    );
  });
});
