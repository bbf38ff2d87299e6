import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runDiffCommand } from '../../../src/commands/diff.js';
import { type RunDiff } from '../../../src/diff/build-run-diff.js';
import { createProgram } from '../../../src/program.js';
import { writeSlowerBuildCopy, writeSlowerUploadCopy, writeUnchangedCopy } from './slow-fixture-run.js';

// `rocm-perf diff` in-process on the real gfx1201 cold run (fixtures/runs, real BuildKit, 5 nodes, 13 targets)
// against copies with one cause changed by hand (slow-fixture-run.ts): triton-wheel's build 10 s longer, or
// kiln's upload throughput halved.

const root = mkdtempSync(path.join(tmpdir(), 'rocm-perf-explain-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// The cold run as recorded, beside its changed copies: all three read from their stored data.json (slow-fixture-run.ts).
const cold = writeUnchangedCopy(path.join(root, 'cold'));
const slowed = writeSlowerBuildCopy(path.join(root, 'triton-slower'));
const slowerUploads = writeSlowerUploadCopy(path.join(root, 'kiln-upload-slower'));
/** A run dir's makespan as data.json records it (the copies' are worked out by hand in slow-fixture-run.ts). */
const makespanOf = (dir: string) =>
  (JSON.parse(readFileSync(path.join(dir, 'data.json'), 'utf8')) as { summary: { makespanSeconds: number } })
    .summary.makespanSeconds;
const [coldSeconds, slowedSeconds] = [makespanOf(cold), makespanOf(slowed)];

async function runDiff(flags: string[], b = slowed): Promise<{ stdout: string; stderr: string[] }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void stdout.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void stderr.push(line));
  try {
    const program = createProgram({ diff: runDiffCommand });
    await program.parseAsync(['diff', cold, b, '--root', root, ...flags], { from: 'user' });
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
  return { stdout: stdout.join('\n'), stderr };
}

describe('rocm-perf diff on the real cold run against a copy with triton-wheel 10 s slower', () => {
  it('--json: the explanation puts the change on triton-wheel’s build, and everything adds up', async () => {
    const diff = JSON.parse((await runDiff(['--json'])).stdout) as RunDiff;
    expect(diff.version).toBe(4);
    const explanation = diff.explanation!;
    expect(explanation.actualSeconds.delta).toBeCloseTo(slowedSeconds - coldSeconds, 2);
    const [first] = explanation.causes;
    expect(first).toMatchObject({ kind: 'build', target: 'triton-wheel', onCriticalPath: true });
    expect(first!.shareSeconds).toBeGreaterThanOrEqual(0.9 * explanation.actualSeconds.delta!);
    const total = explanation.causes.reduce((sum, c) => sum + c.shareSeconds, 0);
    expect(total).toBeCloseTo(explanation.actualSeconds.delta!, 9);
    // The replays reproduce each side within 0.1 s (run.json's last finish vs the trace's last end).
    expect(Math.abs(explanation.modelErrorSeconds.a)).toBeLessThan(0.1);
    expect(Math.abs(explanation.modelErrorSeconds.b)).toBeLessThan(0.1);
    expect(explanation.method.kind).toBe('exact');
  });

  it('markdown: opens with the split, triton-wheel first', async () => {
    const lines = (await runDiff([])).stdout.split('\n');
    expect(lines[2]).toBe('## Why the makespan changed');
    const delta = slowedSeconds - coldSeconds;
    expect(lines[4]).toBe(
      `**Makespan:** ${coldSeconds.toFixed(2)}s → ${slowedSeconds.toFixed(2)}s (+${delta.toFixed(2)}s, +${Math.round((delta / coldSeconds) * 100)} %), split by cause; the lines add up to the change:`,
    );
    expect(lines[6]).toMatch(
      /^- \+(9\.\d+|10(\.\d+)?)s triton-wheel build \(\+\d+ %, on the critical path\)$/,
    );
    expect(lines.find((l) => l.startsWith('How:'))).toMatch(/ for B \(measured \d+\.\d\ds/);
  });

  it('--html FILE: writes the page and says where on stderr', async () => {
    const file = path.join(root, 'diff.html');
    const { stderr } = await runDiff(['--html', file]);
    expect(stderr).toEqual([`note: diff page written to ${file}`]);
    const html = readFileSync(file, 'utf8');
    expect(html).toMatch(/<li>\+(9\.\d+|10(\.\d+)?)s triton-wheel build/);
    expect(html).not.toContain('<script');
  });
});

describe('rocm-perf diff on the real cold run against a copy with kiln uploading slower', () => {
  it('puts at least 90 % of the change on kiln’s upload throughput', async () => {
    const diff = JSON.parse((await runDiff(['--json'], slowerUploads.dir)).stdout) as RunDiff;
    const explanation = diff.explanation!;
    // The copy puts kiln's last finish 10 s after the cold run's makespan.
    expect(explanation.actualSeconds.delta).toBeCloseTo(makespanOf(slowerUploads.dir) - coldSeconds, 2);
    expect(explanation.actualSeconds.delta).toBeCloseTo(10, 1);
    const kiln = explanation.causes.find((c) => c.kind === 'upload-throughput' && c.node === 'kiln')!;
    expect(kiln.shareSeconds).toBeGreaterThanOrEqual(0.9 * explanation.actualSeconds.delta!);
    expect(kiln.sentence).toMatch(
      /^\+(9\.\d+|10(\.\d+)?)s kiln upload throughput \([\d.]+ → [\d.]+ MB\/s\)$/,
    );
  });
});
