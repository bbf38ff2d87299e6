import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataFileSchema } from '../../src/artifacts/index.js';
import { writeFixtureRun } from '../../scripts/make-fixture-run.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { recordedSliceBytes, withCommas } from '../helpers/sample-run-facts.js';

// `rocm-perf report` as users run it: the built CLI on generated run dirs. A present-but-empty or drifted
// zot.jsonl must warn loudly on stderr and exit 1, while still writing the report.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(repoRoot, 'dist/cli.js');
let temp: TempDir;

function runReport(args: string[]) {
  return execa(process.execPath, [cli, 'report', ...args], {
    reject: false,
    env: { NO_COLOR: '1', PERF_ROOT: temp.path },
    extendEnv: true,
  });
}

async function makeRun(
  name: string,
  registryLog: 'ok' | 'empty' | 'drifted',
  extra: { withRunFile?: boolean } = {},
): Promise<string> {
  return writeFixtureRun({
    dir: path.join(temp.path, name),
    stamp: name,
    nodeCount: 2,
    durationSeconds: 900,
    seed: 2,
    sampleIntervalMs: 5000,
    registryLog,
    ...extra,
  });
}

beforeAll(async () => {
  await stat(cli).catch(() => {
    throw new Error(`${cli} is missing: run \`npm run build\` first (npm test does)`);
  });
  temp = createTempDir('report-e2e');
});

afterAll(() => temp?.remove());

describe('rocm-perf report', () => {
  it('writes data.json, report.md with its SVGs and index.html with its scripts, exit 0', async () => {
    const dir = await makeRun('20260301T000000Z', 'ok');
    const result = await runReport([dir, '--json']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const out = JSON.parse(result.stdout) as { harness: string; files: string[] };
    expect(out.harness).toBe('warm');
    for (const name of [
      'data.json',
      'report.md',
      'timeline.svg',
      'targets.svg',
      'index.html',
      'report-page.js',
    ]) {
      expect((await stat(path.join(dir, name))).size).toBeGreaterThan(0);
    }
    const md = await readFile(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('](timeline.svg)');
    expect(md).toContain('](targets.svg)');
    expect(md).toContain('**Harness: warm**');
    const svg = await readFile(path.join(dir, 'timeline.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('CPU busy (solid) and memory used (dashed)');
    DataFileSchema.parse(JSON.parse(await readFile(path.join(dir, 'data.json'), 'utf8')));
  });

  it.each([
    ['empty', 'zot.jsonl: present but empty (0 bytes)'],
    ['drifted', 'but found no records'],
  ] as const)(
    'warns loudly and exits 1 on a %s zot.jsonl, still writing the report',
    async (variant, message) => {
      const dir = await makeRun(`20260302T00000${variant === 'empty' ? 1 : 2}Z`, variant);
      const result = await runReport([dir]);
      expect(result.exitCode).toBe(1);
      const firstLine = result.stderr.split('\n')[0]!;
      expect(firstLine).toMatch(/^WARNING: zot\.jsonl: /);
      expect(firstLine).toContain(message);
      expect(result.stderr).toContain('error: 1 loud warning(s)');
      const model = DataFileSchema.parse(JSON.parse(await readFile(path.join(dir, 'data.json'), 'utf8')));
      expect(model.summary.streams['zot.jsonl']!.records).toBe(0);
      expect(model.summary.warnings.filter((w) => w.level === 'loud').map((w) => w.stream)).toEqual([
        'zot.jsonl',
      ]);
      expect(await readFile(path.join(dir, 'report.md'), 'utf8')).toContain('Loud warnings');
    },
  );

  it('labels a run dir holding only the spec files as harness unknown, and defaults to the newest run', async () => {
    await makeRun('20991231T235959Z', 'ok', { withRunFile: false });
    const result = await runReport([]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('report (unknown harness) written to');
    expect(result.stdout).toContain('20991231T235959Z');
    const md = await readFile(path.join(temp.path, '20991231T235959Z', 'report.md'), 'utf8');
    expect(md).toContain('**Harness: unknown**');
  });

  it('refuses an empty directory with exit 2 and writes nothing into it (was exit 0 and six files)', async () => {
    const dir = path.join(temp.path, 'empty-dir');
    await mkdir(dir);
    const result = await runReport([dir]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `error: ${dir}: not a run dir: no run.json, no lane.txt, and no trace-<target>.json beside another file of a run; it is empty. Nothing was read or written`,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("keeps the run's own stamp (run.json) in data.json, report.md and the page when its folder has another name", async () => {
    const dir = path.join(temp.path, 'renamed-warm');
    await cp(path.join(repoRoot, 'fixtures/runs/gfx1201-warm'), dir, { recursive: true });
    const own = (JSON.parse(await readFile(path.join(dir, 'run.json'), 'utf8')) as { stamp: string }).stamp;
    expect(own).toMatch(/^\d{8}T\d{6}Z/);
    const result = await runReport([dir]);
    expect(result.exitCode).toBe(0);
    const model = DataFileSchema.parse(JSON.parse(await readFile(path.join(dir, 'data.json'), 'utf8')));
    expect(model.run.stamp).toBe(own);
    expect(await readFile(path.join(dir, 'report.md'), 'utf8')).toContain(`# rocm-perf report — ${own}`);
    expect(await readFile(path.join(dir, 'index.html'), 'utf8')).toContain(`<title>${own} · warm run`);
  });

  it('a shipped sample run with zot.jsonl cut to half: warns naming the shortfall, marks registry partial, exit 1', async () => {
    const dir = path.join(temp.path, 'gfx1201-warm-cut');
    await cp(path.join(repoRoot, 'fixtures/runs/gfx1201-warm'), dir, { recursive: true });
    const zot = path.join(dir, 'zot.jsonl');
    const recorded = recordedSliceBytes(dir, 'zot.jsonl');
    expect((await stat(zot)).size).toBe(recorded);
    await truncate(zot, Math.floor(recorded / 2));
    const left = (await stat(zot)).size;
    const result = await runReport([dir]);
    expect(result.exitCode).toBe(1);
    // First the digest run.json recorded for the file (the sha256 of what is left, worked out here), then the slice.
    const sha = createHash('sha256')
      .update(await readFile(zot))
      .digest('hex');
    expect(result.stderr.split('\n')[0]).toMatch(
      new RegExp(
        `^WARNING: zot\\.jsonl: sha256 ${sha.slice(0, 12)}… \\(${withCommas(left)} bytes\\) is not the `,
      ),
    );
    expect(result.stderr.split('\n')).toContain(
      `WARNING: zot.jsonl: ${withCommas(left)} of the ${withCommas(recorded)} bytes run.json recorded for this slice (${withCommas(recorded - left)} bytes missing: the file was cut short after the run); its figures count only what is left`,
    );
    const model = DataFileSchema.parse(JSON.parse(await readFile(path.join(dir, 'data.json'), 'utf8')));
    expect(model.summary.registry.partial).toEqual(['zot.jsonl']);
    expect(await readFile(path.join(dir, 'report.md'), 'utf8')).toContain(
      '## Registry writes (warm, namespace `rocm`) ⚠ partial (zot.jsonl)',
    );
  });
});
