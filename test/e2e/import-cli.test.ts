// `rocm-perf import --lane NAME SRC` as users run it: a run recorded elsewhere (a run dir, or a .tar.gz of one)
// comes in under the runs root with its lane, and every view then names the lane and keeps it apart.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureRun } from '../../scripts/make-fixture-run.js';
import type { DataFile } from '../../src/artifacts/index.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { assertCliBuilt, runBuiltCli } from '../helpers/run-built-cli.js';

let temp: TempDir;
let root: string;
let elsewhere: string;
const common = {
  nodeCount: 3,
  durationSeconds: 1200,
  targetsPerNode: 2,
  sampleIntervalMs: 10_000,
  harness: 'warm' as const,
};

beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('import-e2e');
  root = path.join(temp.path, 'runs');
  elsewhere = path.join(temp.path, 'aws');
  await writeFixtureRun({
    ...common,
    dir: path.join(root, '20260310T000000Z'),
    stamp: '20260310T000000Z',
    seed: 11,
  });
  await writeFixtureRun({
    ...common,
    dir: path.join(elsewhere, '20260311T000000Z'),
    stamp: '20260311T000000Z',
    seed: 12,
  });
  await writeFixtureRun({
    ...common,
    dir: path.join(elsewhere, '20260312T000000Z'),
    stamp: '20260312T000000Z',
    seed: 13,
  });
  execFileSync('tar', ['-czf', path.join(temp.path, 'nightly.tar.gz'), '-C', elsewhere, '20260312T000000Z']);
});
afterAll(() => temp.remove());

const cli = (args: string[]) => runBuiltCli(args, { root });

describe('rocm-perf import', () => {
  it('imports a run dir and a tarball as a lane, refuses a second import of the same stamp without --force', async () => {
    const dir = await cli(['import', '--lane', 'nightly-aws', path.join(elsewhere, '20260311T000000Z')]);
    expect(dir.exitCode, dir.stderr).toBe(0);
    expect(dir.stdout).toBe(
      `imported run 20260311T000000Z as lane nightly-aws: ${path.join(root, '20260311T000000Z')}`,
    );
    expect(readFileSync(path.join(root, '20260311T000000Z', 'lane.txt'), 'utf8')).toBe('nightly-aws\n');
    const tarball = await cli(['import', '--lane', 'nightly-aws', path.join(temp.path, 'nightly.tar.gz')]);
    expect(tarball.exitCode, tarball.stderr).toBe(0);
    expect(existsSync(path.join(root, '20260312T000000Z', 'zot.jsonl'))).toBe(true);
    const again = await cli(['import', '--lane', 'nightly-aws', path.join(elsewhere, '20260311T000000Z')]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr.split('\n')[0]).toBe(`error: ${root} already has a run 20260311T000000Z`);
    const forced = await cli([
      'import',
      '--force',
      '--lane',
      'nightly-aws',
      path.join(elsewhere, '20260311T000000Z'),
    ]);
    expect(forced.stdout).toMatch(/^replaced run 20260311T000000Z/);
    expect(readdirNames(root).filter((name) => name.startsWith('.import-'))).toEqual([]);
  });

  it('names the lane in the report and keeps lanes apart in diff', async () => {
    const report = await cli(['report', '20260311T000000Z']);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(readFileSync(path.join(root, '20260311T000000Z', 'report.md'), 'utf8')).toContain(
      '**Harness: warm**, lane `nightly-aws`',
    );
    const diff = await cli(['diff', '20260310T000000Z', '20260311T000000Z']);
    expect(diff.exitCode).toBe(2);
    expect(diff.stderr.split('\n')[0]).toMatch(
      /recorded in lane fleet and RUN_B 20260311T000000Z in lane nightly-aws/,
    );
    const forced = await cli(['diff', '--force', '20260310T000000Z', '20260311T000000Z']);
    expect(forced.stdout.split('\n')[0]).toBe(
      '# Run diff (warm harness, CROSS-LANE: fleet vs nightly-aws, forced)',
    );
  });

  it('rewrites the report a run came with: made in its old lane, it would say fleet', async () => {
    const stamp = '20260313T000000Z';
    await writeFixtureRun({ ...common, dir: path.join(elsewhere, stamp), stamp, seed: 14 });
    const made = await runBuiltCli(['report', path.join(elsewhere, stamp)], { root: elsewhere });
    expect(made.exitCode, made.stderr).toBe(0);
    const before = JSON.parse(readFileSync(path.join(elsewhere, stamp, 'data.json'), 'utf8')) as DataFile;
    expect(before.run.lane).toBe('fleet');
    const imported = await cli(['import', '--lane', 'nightly-aws', path.join(elsewhere, stamp)]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    const after = JSON.parse(readFileSync(path.join(root, stamp, 'data.json'), 'utf8')) as DataFile;
    expect(after.run.lane).toBe('nightly-aws');
    expect(readFileSync(path.join(root, stamp, 'report.md'), 'utf8')).toContain(
      '**Harness: warm**, lane `nightly-aws`',
    );
    // The source is left as it was.
    expect(readFileSync(path.join(elsewhere, stamp, 'report.md'), 'utf8')).toContain('lane `fleet`');
  });

  it('refuses a bad lane, a missing source and a directory that holds no run, one line each', async () => {
    const bad = await cli(['import', '--lane', 'Nightly AWS', path.join(elsewhere, '20260311T000000Z')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.split('\n')[0]).toMatch(/^error: --lane Nightly AWS: expected a lane name/);
    const missing = await cli(['import', '--lane', 'x', path.join(temp.path, 'nope')]);
    expect(missing.stderr.split('\n')[0]).toBe(
      `error: ${path.join(temp.path, 'nope')}: no such run dir or tarball`,
    );
    const empty = await cli(['import', '--lane', 'x', temp.path]);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr.split('\n')[0]).toMatch(/holds no run/);
  });
});

function readdirNames(dir: string): string[] {
  return execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).split('\n').filter(Boolean);
}
