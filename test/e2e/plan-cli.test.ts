import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlanFileSchema } from '../../src/artifacts/index.js';
import { repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

// Spawns the built CLI (`npm test` builds first via `pretest`) from the repo root, as a user would.

function runCli(args: string[]) {
  return runBuiltCli(args);
}

describe('rocm-perf plan (CLI)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rocm-perf-plan-cli-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the versioned plan document with --json on the shipped fleet', async () => {
    const result = await runCli(['plan', '--json']);
    expect(result.exitCode).toBe(0);
    const plan = PlanFileSchema.parse(JSON.parse(result.stdout));
    expect(plan).toMatchObject({ version: 1, strategy: 'heft-ls', arch: 'gfx1201', gap: 0 });
    expect(Object.keys(plan.targets)).toHaveLength(13);
    expect(plan.criticalPath).toEqual(['pytorch', 'triton-wheel', 'vllm-wheel']);
    expect(Object.values(plan.queues).flat().sort()).toEqual(Object.keys(plan.targets).sort());
  });

  it('prints the human table, honours --strategy and writes --out DIR/plan.json', async () => {
    const result = await runCli(['plan', '--strategy', 'build-only', '--out', dir]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('strategy build-only');
    expect(result.stdout).toMatch(/^kiln — 4\.3 MB\/s/m);
    expect(result.stdout).toMatch(/^critical path /m);
    expect(result.stderr).toContain(`wrote ${path.join(dir, 'plan.json')}`);
    const written = PlanFileSchema.parse(JSON.parse(await readFile(path.join(dir, 'plan.json'), 'utf8')));
    expect(written.strategy).toBe('build-only');
  });

  it('compares every strategy side by side', async () => {
    const result = await runCli(['plan', '--compare']);
    expect(result.exitCode).toBe(0);
    const names = result.stdout
      .split('\n')
      .slice(1, 6)
      .map((line) => line.split(/\s+/)[0]);
    expect(names).toEqual(['heft-ls', 'heft', 'lpt', 'build-only', 'stages']);
    expect(result.stdout).toMatch(/^heft-ls +2h11m12s +1\.000 /m);
  });

  it('rejects an unknown strategy with exit 2 and the valid names', async () => {
    const result = await runCli(['plan', '--strategy', 'fastest']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'error: --strategy fastest: expected one of heft-ls, heft, lpt, build-only, stages. Use e.g. --strategy heft.\nhint: `rocm-perf plan --help` lists every flag',
    );
    expect(result.stdout).toBe('');
  });

  it('stops on a broken fleet.yaml with exit 2, naming file:line and key', async () => {
    const fleet = await readFile(path.join(repoRoot, 'fleet.yaml'), 'utf8');
    const broken = fleet
      .replace(/^arch: gfx1201$/m, 'arch: gfx1201\nfavourite_colour: blue')
      .replace('link_mbps: 112', 'link_mbps: fast');
    expect(broken).not.toBe(fleet);
    const file = path.join(dir, 'fleet.yaml');
    await writeFile(file, broken);
    await cp(path.join(repoRoot, '.builders'), path.join(dir, '.builders'), { recursive: true });
    const result = await runCli(['plan', '--fleet', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const lines = broken.split('\n');
    const lineOf = (text: string) => lines.findIndex((line) => line.includes(text)) + 1;
    expect(result.stderr).toContain(`${file}:${lineOf('favourite_colour')}: favourite_colour: unknown key`);
    expect(result.stderr).toContain(`${file}:${lineOf('link_mbps: fast')}: nodes[1].link_mbps:`);
    expect(result.stderr).toContain('`"fast"`');
  });
});
