// The Makefile shims as a new user runs them: real GNU make, with a stub in place of the CLI that records the
// argv and the environment it receives (written here, independent of the contract's own stub). Then the
// makefile-shims contract as the command runs it: it passes on the shipped Makefile and fails on the one before
// issue 36.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listCliCommands, resolveShimCall } from '../../../src/commands/contracts.js';
import { runContracts } from '../../../src/contracts/index.js';
import { createTempDir, type TempDir } from '../../helpers/daemons/index.js';
import { repoRoot } from './repo-files.js';

const oldMakefile = path.join(repoRoot, 'test/fixtures/makefile/Makefile.before-issue-36');
const temps: TempDir[] = [];
afterAll(() => {
  for (const temp of temps) temp.remove();
});

/** A new user's environment: nothing of the CLI's own variables. */
const userEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' };

interface Call {
  argv: string[];
  env: Map<string, string>;
}

function makeStub(): { command: string; calls: () => Call[] } {
  const temp = createTempDir('shim-stub-');
  temps.push(temp);
  const stub = path.join(temp.path, 'stub.sh');
  writeFileSync(
    stub,
    '#!/bin/sh\nn=$(ls "$(dirname "$0")" | wc -l)\n{ printf "%s\\0" "$#" "$@"; env -0; } > "$(dirname "$0")/call-$n"\n',
  );
  return {
    command: `sh ${stub}`,
    calls: () =>
      readdirSync(temp.path)
        .filter((name) => name.startsWith('call-'))
        .map((name) => {
          const fields = readFileSync(path.join(temp.path, name), 'utf8').split('\0');
          const count = Number(fields[0]);
          const env = new Map<string, string>();
          for (const entry of fields.slice(1 + count)) {
            const at = entry.indexOf('=');
            if (at > 0) env.set(entry.slice(0, at), entry.slice(at + 1));
          }
          return { argv: fields.slice(1, 1 + count), env };
        }),
  };
}

/** `make -o build TARGET ROCM_PERF=<stub> VARS…` in `dir`: the calls the CLI would have received. */
function runShim(makefile: string, target: string, given: string[] = []): Call[] {
  const stub = makeStub();
  execFileSync('make', ['-s', '-f', makefile, '-o', 'build', target, `ROCM_PERF=${stub.command}`, ...given], {
    cwd: repoRoot,
    env: userEnv,
  });
  return stub.calls();
}

const CLI_VARS = [
  'PERF_ARCH',
  'PERF_TARGETS',
  'PERF_FLEET',
  'PERF_ROOT',
  'PERF_BIND',
  'REGISTRY_NAME',
  'PUSH',
];

describe('make perf-* with a stub CLI (what the CLI really receives)', () => {
  it('the shipped Makefile hands down none of the CLI variables a user did not set', () => {
    const [call, ...more] = runShim('Makefile', 'perf-plan');
    expect(more).toEqual([]);
    expect(call?.argv).toEqual(['plan']);
    expect(CLI_VARS.filter((name) => call?.env.has(name))).toEqual([]);
  });

  it('the Makefile before issue 36 handed every one down empty (the defect the contract must catch)', () => {
    const [call] = runShim(oldMakefile, 'perf-plan');
    expect(CLI_VARS.map((name) => [name, call?.env.get(name)])).toEqual(CLI_VARS.map((name) => [name, '']));
  });

  it('a variable given on make’s command line or in its environment reaches the CLI', () => {
    const [call] = runShim('Makefile', 'perf-cold', ['PERF_ARCH=gfx942', 'PERF_TARGETS=pytorch']);
    expect(call?.argv).toEqual(['cold']);
    expect([call?.env.get('PERF_ARCH'), call?.env.get('PERF_TARGETS')]).toEqual(['gfx942', 'pytorch']);
    const stub = makeStub();
    execFileSync('make', ['-s', '-o', 'build', 'perf-report', `ROCM_PERF=${stub.command}`], {
      cwd: repoRoot,
      env: { ...userEnv, PERF_ROOT: '/srv/runs' },
    });
    expect(stub.calls()[0]?.env.get('PERF_ROOT')).toBe('/srv/runs');
  });
});

describe('make build: a file target, rebuilt only when a source changed', () => {
  it('runs `npm run build` once, not again when nothing changed, and again after a source changes', () => {
    const temp = createTempDir('shim-build-');
    temps.push(temp);
    const dir = temp.path;
    copyFileSync(path.join(repoRoot, 'Makefile'), path.join(dir, 'Makefile'));
    for (const sub of ['src', 'scripts', 'bin', 'fakebin']) mkdirSync(path.join(dir, sub));
    for (const file of ['src/cli.ts', 'scripts/build-page.ts', 'package.json', 'package-lock.json'])
      writeFileSync(path.join(dir, file), '{}\n');
    for (const file of ['tsconfig.json', 'tsconfig.build.json']) writeFileSync(path.join(dir, file), '{}\n');
    // A fake npm that records each build (and makes dist/, as the real build does).
    const log = path.join(dir, 'npm.log');
    writeFileSync(path.join(dir, 'fakebin/npm'), `#!/bin/sh\necho "$@" >> ${log}\nmkdir -p dist\n`, {
      mode: 0o755,
    });
    const env = { ...userEnv, PATH: `${path.join(dir, 'fakebin')}:${userEnv.PATH}` };
    const make = () =>
      spawnSync('make', ['-s', 'perf-plan', 'ROCM_PERF=true'], { cwd: dir, env, encoding: 'utf8' });
    const builds = () => readFileSync(log, 'utf8').trim().split('\n').length;
    expect(make().status).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('run build\n');
    expect(make().status).toBe(0);
    expect(builds()).toBe(1);
    // A source newer than the last build.
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(dir, 'src/cli.ts'), later, later);
    expect(make().status).toBe(0);
    expect(builds()).toBe(2);
  });
});

async function checkShims(makefile: string, repoDir = repoRoot) {
  const { commands, envVars } = listCliCommands();
  const report = await runContracts({
    repoDir,
    env: process.env,
    paths: { makefile },
    cli: {
      commands,
      programAt: { file: 'src/commands/flags/index.ts', line: undefined },
      envReads: envVars,
      resolveCall: resolveShimCall,
    },
    only: ['makefile-shims'],
  });
  return report;
}

describe('rocm-perf contracts: makefile-shims runs the shims', () => {
  it('passes on the shipped Makefile', async () => {
    const report = await checkShims('Makefile');
    expect(report.results[0]).toMatchObject({ pair: 'makefile-shims', ok: true, problems: [] });
    expect(report.results[0]?.notes[1]).toMatch(/^ran 16 shim invocations with a stub CLI/);
  });

  it('fails when a variable given on make’s command line does not reach the CLI (`unexport`)', async () => {
    const temp = createTempDir('shim-unexport-');
    temps.push(temp);
    const text = readFileSync(path.join(repoRoot, 'Makefile'), 'utf8');
    writeFileSync(path.join(temp.path, 'Makefile'), `${text}\nunexport PERF_ARCH\n`);
    mkdirSync(path.join(temp.path, 'bin'));
    writeFileSync(path.join(temp.path, 'bin/rocm-perf.js'), '');
    const report = await checkShims('Makefile', temp.path);
    const messages = (report.results[0]?.problems ?? []).map((problem) => problem.message);
    // plan, cold, warm and bench read PERF_ARCH; each loses it.
    expect(
      messages
        .filter((message) => message.includes('PERF_ARCH'))
        .map((m) => /^`make (perf-\w+)/.exec(m)?.[1]),
    ).toEqual(['perf-plan', 'perf-cold', 'perf-warm', 'perf-bench']);
    expect(messages[0]).toMatch(
      /^`make perf-plan PERF_ARCH=given-perf_arch` does not reach the CLI \(it received no PERF_ARCH\)/,
    );
  });

  it('fails on the Makefile before issue 36, naming each variable it hands down empty and the export line', async () => {
    // In a copy of the repository's layout, so the old Makefile's ROCM_PERF finds its bin/rocm-perf.js.
    const temp = createTempDir('shim-old-');
    temps.push(temp);
    copyFileSync(oldMakefile, path.join(temp.path, 'Makefile'));
    mkdirSync(path.join(temp.path, 'bin'));
    writeFileSync(path.join(temp.path, 'bin/rocm-perf.js'), '');
    const report = await checkShims('Makefile', temp.path);
    expect(report.ok).toBe(false);
    const problems = report.results[0]?.problems ?? [];
    const exportLine =
      readFileSync(oldMakefile, 'utf8')
        .split('\n')
        .findIndex((line) => line.startsWith('export')) + 1;
    expect(problems.map((problem) => /CLI (\w+)=""/.exec(problem.message)?.[1])).toEqual([
      'PERF_ARCH',
      'PERF_BIND',
      'PERF_COLD_NAMESPACE',
      'PERF_FLEET',
      'PERF_ROOT',
      'PERF_TARGETS',
      'PUSH',
      'REGISTRY_NAME',
    ]);
    expect(problems[3]?.message).toMatch(
      /^`make perf-plan`, `make perf-cold`, .*`make perf-contracts` hand the CLI PERF_FLEET=""/,
    );
    expect(new Set(problems.map((problem) => problem.producer.line))).toEqual(new Set([exportLine]));
  });
});
