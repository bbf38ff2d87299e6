import { cp } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';

// Issue 36 item 8: wherever a line implies a sum (total = build + gap, gap = upload + setup/export, B − A = Δ,
// baseline − actual = the model's error), the figures as printed add up, to less than one unit of the last digit
// shown. Checked over what the built CLI prints for the shipped sample runs (fixtures/runs, real BuildKit on the
// fleet in a box): report.md, `diff --force`, `plan --from-run`. The figures are parsed back from the text, so a
// rounding the renderer does (2.5s = 2.2s + 0.4s) fails here whatever the code meant.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(repoRoot, 'dist/cli.js');
let temp: TempDir;

interface Shown {
  text: string;
  seconds: number;
  /** One unit of the last digit shown: 0.01 for `2.54s`, 1 for `4m05s`. */
  unit: number;
}

const DURATION = /([-−+]?)(?:(\d+)h)?(?:(\d+)m)?(\d+(?:\.(\d+))?)s/;

function parseShown(text: string): Shown {
  const m = DURATION.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  const [, sign, h, min, s, decimals] = m;
  const magnitude = Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(s);
  return {
    text,
    seconds: sign === '-' || sign === '−' ? -magnitude : magnitude,
    unit: decimals === undefined ? 1 : 10 ** -decimals.length,
  };
}

/** `whole = Σ parts` as shown: off by less than one unit of the coarsest figure's last digit. */
function expectAddsUp(where: string, whole: string, parts: readonly string[]): void {
  const [total, ...rest] = [whole, ...parts].map(parseShown);
  const unit = Math.max(total!.unit, ...rest.map((p) => p.unit));
  const sum = rest.reduce((acc, p) => acc + p.seconds, 0);
  expect(
    Math.abs(total!.seconds - sum),
    `${where}: ${whole} vs ${parts.join(' + ')} = ${sum.toFixed(3)}s`,
  ).toBeLessThan(unit - 1e-9);
}

const D = String.raw`[-−+]?(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?s`;

function runCli(args: string[]) {
  return execa(process.execPath, [cli, ...args], { reject: false, cwd: repoRoot, env: { NO_COLOR: '1' } });
}

beforeAll(async () => {
  temp = createTempDir('numbers-add-up');
  await cp(path.join(repoRoot, 'fixtures/runs'), temp.path, { recursive: true });
});

afterAll(() => temp?.remove());

describe.each(['gfx1201-warm', 'gfx1201-warm-before', 'gfx1201-cold'])('report.md of %s', (name) => {
  it('each target line: total = build + gap, gap = upload + setup/export; each table row: total = build + gap', async () => {
    const dir = path.join(temp.path, name);
    expect((await runCli(['report', dir])).exitCode).toBe(0);
    const md = await readFile(path.join(dir, 'report.md'), 'utf8');
    const bullet = new RegExp(
      String.raw`^- \*\*(\S+)\*\*.*: total (${D}), build (${D}) — the (${D}) gap \([^)]*\): upload (${D}) \([^)]*\), setup/export (${D})$`,
      'gm',
    );
    const bullets = [...md.matchAll(bullet)];
    expect(bullets.length).toBe(13);
    for (const [, target, total, build, gap, upload, rest] of bullets) {
      expectAddsUp(`${target} total`, total!, [build!, gap!]);
      expectAddsUp(`${target} gap`, gap!, [upload!, rest!]);
    }
    const row = new RegExp(String.raw`^\| (\S+) \| \S+ \| ok \| (${D}) \| (${D}) \| (${D}) \|`, 'gm');
    const rows = [...md.matchAll(row)];
    expect(rows.length).toBe(13);
    for (const [, target, build, total, gap] of rows) expectAddsUp(`${target} row`, total!, [build!, gap!]);
  });
});

describe('diff --force of the shipped cold and warm runs', () => {
  it('each row: build B = build A + Δbuild; the makespan line: B = A + Δ', async () => {
    const result = await runCli([
      'diff',
      '--force',
      path.join(repoRoot, 'fixtures/runs/gfx1201-cold'),
      path.join(repoRoot, 'fixtures/runs/gfx1201-warm'),
    ]);
    expect(result.exitCode).toBe(0);
    const row = new RegExp(String.raw`^\| (\S+) \| [^|]+ \| ok \| (${D}) → (${D}) \| (${D}) \(`, 'gm');
    const rows = [...result.stdout.matchAll(row)];
    expect(rows.length).toBe(13);
    for (const [, target, a, b, delta] of rows) expectAddsUp(`${target} build`, b!, [a!, delta!]);
    const makespan = new RegExp(String.raw`^\*\*Makespan:\*\* (${D}) → (${D}) \((${D})`, 'gm');
    const lines = [...result.stdout.matchAll(makespan)];
    expect(lines.length).toBeGreaterThan(0);
    for (const [, a, b, delta] of lines) expectAddsUp('makespan', b!, [a!, delta!]);
  });
});

describe.each(['gfx1201-warm', 'gfx1201-cold'])('plan --from-run %s', (name) => {
  it('baseline = actual + the model error; predicted = baseline + the change; as recorded = actual + its error', async () => {
    const result = await runCli(['plan', '--from-run', path.join(repoRoot, 'fixtures/runs', name)]);
    expect(result.exitCode).toBe(0);
    const figure = (label: string, note: string): [string, string] => {
      const m = new RegExp(String.raw`^${label}\s+(${D})\s+${note}`, 'm').exec(result.stdout);
      expect(m, `${label} line`).not.toBeNull();
      return [m![1]!, m![2]!];
    };
    const actual = new RegExp(String.raw`^actual \(run\.json\)\s+(${D})$`, 'm').exec(result.stdout)![1]!;
    const [baseline, error] = figure(
      'baseline: recorded queues, recorded fleet',
      String.raw`model vs actual (${D})`,
    );
    expectAddsUp('baseline', baseline, [actual, error]);
    const [predicted, change] = figure(String.raw`predicted: \S+, recorded fleet`, String.raw`(${D}|±0) \(`);
    expectAddsUp('predicted', predicted, [baseline, change === '±0' ? '0s' : change]);
    const [recorded, off] = figure(
      'as recorded: the run replayed as `diff` does',
      String.raw`(${D}|±0) vs actual`,
    );
    expectAddsUp('as recorded', recorded, [actual, off === '±0' ? '0s' : off]);
    // No figure of a run under a minute is rounded to whole seconds.
    for (const shown of [actual, baseline, predicted, recorded]) expect(shown).toMatch(/\.\d\ds$/);
  });
});

describe('plan --from-run and diff replay a run alike', () => {
  it("prints diff's replay of the shipped warm run beside its baseline, and labels the warm run's figures as its own", async () => {
    const warm = path.join(repoRoot, 'fixtures/runs/gfx1201-warm');
    const cold = path.join(repoRoot, 'fixtures/runs/gfx1201-cold');
    const replay = await runCli(['plan', '--from-run', warm, '--json']);
    expect(replay.exitCode).toBe(0);
    const fromRun = JSON.parse(replay.stdout) as {
      asRecorded: { makespanSeconds: number } | null;
      baselineMakespanSeconds: number;
    };
    const diff = await runCli(['diff', '--force', '--json', cold, warm]);
    const explanation = (JSON.parse(diff.stdout) as { explanation: { modelSeconds: { b: number } } })
      .explanation;
    // diff rounds its model check to the millisecond.
    expect(Math.abs(fromRun.asRecorded!.makespanSeconds - explanation.modelSeconds.b)).toBeLessThan(0.0011);
    const text = (await runCli(['plan', '--from-run', warm])).stdout;
    expect(text).toContain("costs: this warm run's own measured figures");
    expect(text).not.toContain('cold build seconds');
    expect(text).toContain('`diff` replays the run as recorded');
  });
});
