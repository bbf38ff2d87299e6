import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runDiffCommand } from '../../../src/commands/diff.js';
import type { RunDiff } from '../../../src/diff/index.js';
import { createProgram } from '../../../src/program.js';

// `rocm-perf diff` in-process on the real gfx1201 cold run (fixtures/runs, real BuildKit, 5 nodes, 13 targets)
// against a copy where triton-wheel's build took 10 s longer. The copy's timeline is shifted by hand below:
// triton-wheel finishes 10 s later on strix, and vllm-wheel (after it on strix, and waiting for it) starts and
// finishes 10 s later; nothing else waits for either.

const FIXTURE = path.resolve('fixtures/runs/gfx1201-cold');
const SLOWER_MS = 10_000;
const root = mkdtempSync(path.join(tmpdir(), 'rocm-perf-explain-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Outcome {
  startedAtMs: number;
  finishedAtMs: number;
}
interface TargetRow {
  target: string;
  startMs: number;
  endMs: number;
  buildSeconds: number;
  totalSeconds: number;
}

function writeSlowedCopy(): string {
  const dir = path.join(root, 'gfx1201-cold-triton-slower');
  cpSync(FIXTURE, dir, { recursive: true });
  const runPath = path.join(dir, 'run.json');
  const run = JSON.parse(readFileSync(runPath, 'utf8')) as {
    stamp: string;
    targets: Record<string, Outcome>;
    finishedAtMs: number;
  };
  run.stamp = `${run.stamp}-slower`;
  run.targets['triton-wheel']!.finishedAtMs += SLOWER_MS;
  run.targets['vllm-wheel']!.startedAtMs += SLOWER_MS;
  run.targets['vllm-wheel']!.finishedAtMs += SLOWER_MS;
  run.finishedAtMs += SLOWER_MS;
  writeFileSync(runPath, JSON.stringify(run, null, 2));
  const dataPath = path.join(dir, 'data.json');
  const data = JSON.parse(readFileSync(dataPath, 'utf8')) as {
    run: { stamp: string };
    summary: { makespanSeconds: number; targets: TargetRow[] };
    timeline: { originMs: number };
  };
  data.run.stamp = run.stamp;
  const row = (name: string) => data.summary.targets.find((t) => t.target === name)!;
  Object.assign(row('triton-wheel'), {
    endMs: row('triton-wheel').endMs + SLOWER_MS,
    buildSeconds: row('triton-wheel').buildSeconds + SLOWER_MS / 1000,
    totalSeconds: row('triton-wheel').totalSeconds + SLOWER_MS / 1000,
  });
  Object.assign(row('vllm-wheel'), {
    startMs: row('vllm-wheel').startMs + SLOWER_MS,
    endMs: row('vllm-wheel').endMs + SLOWER_MS,
  });
  const lastEnd = Math.max(...data.summary.targets.map((t) => t.endMs));
  data.summary.makespanSeconds = Math.round(lastEnd - data.timeline.originMs) / 1000;
  writeFileSync(dataPath, JSON.stringify(data));
  return dir;
}

const slowed = writeSlowedCopy();

async function runDiff(...flags: string[]): Promise<{ stdout: string; stderr: string[] }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void stdout.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void stderr.push(line));
  try {
    const program = createProgram({ diff: runDiffCommand });
    await program.parseAsync(['diff', FIXTURE, slowed, '--root', root, ...flags], { from: 'user' });
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
  return { stdout: stdout.join('\n'), stderr };
}

describe('rocm-perf diff on the real cold run against a copy with triton-wheel 10 s slower', () => {
  it('--json: the explanation puts the change on triton-wheel’s build, and everything adds up', async () => {
    const diff = JSON.parse((await runDiff('--json')).stdout) as RunDiff;
    expect(diff.version).toBe(3);
    const explanation = diff.explanation!;
    expect(explanation.actualSeconds.delta).toBeCloseTo(9.51, 2);
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
    const lines = (await runDiff()).stdout.split('\n');
    expect(lines[2]).toBe('## Why the makespan changed');
    expect(lines[4]).toBe(
      '**Makespan:** 54.30s → 63.81s (+9.51s, +18 %), split by cause; the lines add up to the change:',
    );
    expect(lines[6]).toMatch(/^- \+9\.\d+s triton-wheel build \(\+1\d\d %, on the critical path\)$/);
    expect(lines.find((l) => l.startsWith('How:'))).toMatch(/error -0\.0\d+s\) and 63\.\d\ds for B/);
  });

  it('--html FILE: writes the page and says where on stderr', async () => {
    const file = path.join(root, 'diff.html');
    const { stderr } = await runDiff('--html', file);
    expect(stderr).toEqual([`note: diff page written to ${file}`]);
    const html = readFileSync(file, 'utf8');
    expect(html).toMatch(/<li>\+9\.\d+s triton-wheel build/);
    expect(html).not.toContain('<script');
  });
});
