import { cp, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdviceSchema, DataFileSchema } from '../../src/artifacts/index.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { assertCliBuilt, repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

// `rocm-perf advise` and the report's Advice section as users run them: the built CLI on a lane of three warm
// runs made from the recorded warm sample (fixtures/runs/gfx1201-warm, a real box run). Between them, on purpose:
// pytorch's build arg BOX_UNITS takes a new value in each run, and the rocm-base tag resolves to a new digest in
// the newest run (every meta-<target>.json names it). The sample itself double-pushes its layers (real trace).

const sample = path.join(repoRoot, 'fixtures/runs/gfx1201-warm');
const OLD_BASE = '939eb28187e47f2ada99bf348a0a59f785e53312baa74244ef4fb26a00fe5c60';
const NEW_BASE = 'ab'.repeat(32);
const HOUR = 3_600_000;
let temp: TempDir;

async function makeRun(
  name: string,
  { units, base, hoursBefore }: { units: string; base: string; hoursBefore: number },
) {
  const dir = path.join(temp.path, name);
  await cp(sample, dir, { recursive: true });
  const runFile = JSON.parse(await readFile(path.join(dir, 'run.json'), 'utf8')) as Record<string, number>;
  for (const key of ['startedAtMs', 'measuredStartedAtMs', 'finishedAtMs'])
    runFile[key]! -= hoursBefore * HOUR;
  await writeFile(path.join(dir, 'run.json'), JSON.stringify(runFile));
  for (const file of (await readdir(dir)).filter((n) => /^meta-.+\.json$/.test(n))) {
    let text = (await readFile(path.join(dir, file), 'utf8')).replaceAll(OLD_BASE, base);
    if (file === 'meta-pytorch.json')
      text = text.replaceAll('"build-arg:BOX_UNITS": "40"', `"build-arg:BOX_UNITS": "${units}"`);
    await writeFile(path.join(dir, file), text);
  }
  return dir;
}

beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('advise-e2e');
  await makeRun('r1', { units: '38', base: OLD_BASE, hoursBefore: 2 });
  await makeRun('r2', { units: '39', base: OLD_BASE, hoursBefore: 1 });
  await makeRun('r3', { units: '40', base: NEW_BASE, hoursBefore: 0 });
});

afterAll(() => temp?.remove());

describe('rocm-perf advise', () => {
  it('names the arg that changes every run, the moving tag and the double push, ranked, each with its evidence', async () => {
    const result = await runBuiltCli(['advise', 'r3', '--json'], { root: temp.path });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const { run, advice } = JSON.parse(result.stdout) as { run: string; advice: unknown[] };
    expect(run).toBe('r3');
    const parsed = advice.map((entry) => AdviceSchema.parse(entry));
    expect(parsed.map((entry) => entry.kind).sort()).toEqual([
      'double-cache-push',
      'moving-tag',
      'volatile-input',
    ]);
    const volatile = parsed.find((entry) => entry.kind === 'volatile-input')!;
    expect(volatile.targets).toEqual(['pytorch']);
    expect(volatile.evidence[0]).toContain('BOX_UNITS = `40`, `39`, `38`, a new value in each');
    const moving = parsed.find((entry) => entry.kind === 'moving-tag')!;
    expect(moving.action).toContain(`(10.213.182.1:5000/rocm/rocm-base@sha256:${NEW_BASE})`);
    expect(moving.evidence[0]).toContain('resolved to 2 digests over 3 runs');
    for (const entry of parsed) expect(entry.savingSeconds).not.toBeNull();
    const savings = parsed.map((entry) => entry.savingSeconds!);
    expect(savings).toEqual([...savings].sort((a, b) => b - a));
  });

  it('--runs 2 compares two runs only: an arg that changed once is not "every run"', async () => {
    const result = await runBuiltCli(['advise', 'r3', '--runs', '2', '--json'], { root: temp.path });
    const { advice } = JSON.parse(result.stdout) as { advice: { kind: string }[] };
    expect(advice.map((entry) => entry.kind).sort()).toEqual(['double-cache-push', 'moving-tag']);
  });

  it('prints markdown without --json, and the oldest run of the lane has no history to compare', async () => {
    const result = await runBuiltCli(['advise', 'r1'], { root: temp.path });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(
      /^# Advice for r1\n\n1\. \*\*double-cache-push\*\* \(saves [0-9.]+s of makespan\): Push the image layers once/,
    );
    expect(result.stdout).not.toContain('moving-tag');
  });

  it('report writes the same advice into data.json and an Advice section into report.md', async () => {
    const report = await runBuiltCli(['report', 'r3'], { root: temp.path });
    expect(report.exitCode).toBe(0);
    const data = DataFileSchema.parse(
      JSON.parse(await readFile(path.join(temp.path, 'r3', 'data.json'), 'utf8')),
    );
    const advise = await runBuiltCli(['advise', 'r3', '--json'], { root: temp.path });
    expect(data.summary.advice).toEqual((JSON.parse(advise.stdout) as { advice: unknown }).advice);
    const md = await readFile(path.join(temp.path, 'r3', 'report.md'), 'utf8');
    expect(md).toContain('## Advice (warm; `rocm-perf advise`, docs/advise.md)');
    expect(md).toContain('**volatile-input**');
    const html = await readFile(path.join(temp.path, 'r3', 'index.html'), 'utf8');
    expect(html).toContain('<ol class="advice">');
  });

  it('a RUN that is not a run dir: exit 2, an error line and a hint', async () => {
    const result = await runBuiltCli(['advise', 'no-such-run'], { root: temp.path });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `error: no-such-run: no such run dir (looked in the current directory and under ${temp.path})`,
    );
    expect(result.stderr).toContain('hint: ');
  });
});
