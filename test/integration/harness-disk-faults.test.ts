// The run dir's file system failing mid-run, for real: a tmpfs as the run root, filled up (ENOSPC) or remounted
// read-only (EROFS) while a target builds. buildx, node_exporter and the log host are the unit tier's fakes; the
// kernel's errors are not. The run must stop launching, finalize what it can, say so on stderr and exit non-zero.
import { execFileSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { existsSync, mkdirSync, readdirSync, readFileSync, statfsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunFileSchema, type RunFile } from '../../src/artifacts/index.js';
import { ExitCode } from '../../src/shared/errors.js';
import { runHarness } from '../../src/run/harness/run-harness.js';
import { createFakeWorld, writeFleetFixture } from '../helpers/harness-fixture.js';

let fixture: ReturnType<typeof writeFleetFixture>;
let root: string;

beforeEach(() => {
  fixture = writeFleetFixture();
  root = path.join(fixture.dir, 'tmpfs-root');
  mkdirSync(root);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'rocm-perf-disk-test', root]);
});
const extraMounts: string[] = [];
afterEach(() => {
  for (const mount of extraMounts.splice(0).reverse()) execFileSync('umount', ['-l', mount]);
  execFileSync('umount', ['-l', root]);
  fixture.remove();
});

function fillUp(dir: string): void {
  const { bavail, bsize } = statfsSync(dir);
  execFileSync('fallocate', ['-l', String(bavail * bsize), path.join(dir, 'filler')]);
}

async function runWith(onBakeStart: (target: string) => unknown) {
  const lines: string[] = [];
  const stderr = {
    write: (chunk: string) => (lines.push(String(chunk)), true),
  } as unknown as NodeJS.WritableStream;
  const fake = createFakeWorld({
    sccacheLog: fixture.sccacheLog,
    registryLog: fixture.registryLog,
    durationMs: { pytorch: 50, 'a-wheel': 400, 'b-wheel': 400, 'c-wheel': 400 },
    onBakeStart,
  });
  const result = await runHarness({
    harness: 'warm',
    fleetPath: fixture.fleetPath,
    flags: {},
    root,
    env: {},
    sshAgent: undefined,
    dockerConfigDir: '/nonexistent/.docker',
    logLevel: 'warn',
    dispatch: 'fixed',
    coldNamespaceSuffix: '',
    signal: new AbortController().signal,
    sampleIntervalMs: 10,
    logPollIntervalMs: 10,
    effects: { ...fake.effects, stderr },
  });
  return { result, stderr: lines.join(''), fake };
}

const readRun = (runDir: string): RunFile =>
  RunFileSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')));

describe('the run root failing mid-run', () => {
  it('ENOSPC: stops launching, frees its reserve to finalize run.json and the report, says so loudly, exits 2', async () => {
    const { result, stderr, fake } = await runWith((target) => {
      if (target === 'a-wheel') fillUp(root);
    });
    expect(result.exitCode).toBe(ExitCode.fatal);
    const run = readRun(result.runDir);
    expect(run.status).toBe('failed');
    expect(run.exitCode).toBe(ExitCode.fatal);
    const account = run.warnings.find((w) => w.startsWith('the run dir could not be written (ENOSPC'));
    expect(account, run.warnings.join('\n')).toMatch(
      /Fix: free space on that file system or move the run root/,
    );
    expect(stderr).toContain('ERROR: the run dir could not be written (ENOSPC');
    expect(stderr).not.toContain('run.json could not be finalized');
    // What was done before the disk filled is kept; nothing was launched after.
    expect(run.targets.pytorch?.status).toBe('ok');
    expect(run.targets['a-wheel']?.status).toBe('interrupted');
    const failedAtMs = Date.parse(/at (\S+)\)/.exec(account!)![1]!);
    for (const [target, outcome] of Object.entries(run.targets))
      expect(['ok', 'interrupted', 'skipped'], target).toContain(outcome.status);
    for (const bake of fake.bakes)
      expect(bake.startedAtMs, bake.options.target).toBeLessThanOrEqual(failedAtMs);
    expect(readFileSync(path.join(result.runDir, 'samples.jsonl'), 'utf8').length).toBeGreaterThan(0);
    // The reserve held the report; it is gone afterwards.
    expect(existsSync(path.join(result.runDir, 'report.md'))).toBe(true);
    expect(readdirSync(result.runDir)).not.toContain('.reserve');
  });

  it('EROFS: nothing more can be written; stderr says what run.json on disk is missing, exits 2', async () => {
    let runDir = '';
    const { result, stderr } = await runWith(async (target) => {
      if (target !== 'a-wheel') return;
      // The run dir goes read-only under the harness: a read-only bind mount over it (a remount of the whole tmpfs
      // is refused while the harness holds files open for writing; files already open keep writing, as on a disk
      // whose new writes fail).
      runDir = path.join(
        root,
        readdirSync(root).find((name) => /^\d/.test(name))!,
      );
      execFileSync('mount', ['--bind', runDir, runDir]);
      extraMounts.push(runDir);
      // A write the harness began just before (on libuv's pool) may open its file through the new mount; the kernel
      // then refuses the read-only remount ("mount point is busy") until that write closes. So: again, shortly.
      for (let attempt = 1; ; attempt++) {
        try {
          execFileSync('mount', ['-o', 'remount,bind,ro', runDir], { stdio: 'pipe' });
          break;
        } catch (error) {
          if (attempt === 40) throw error;
          await delay(25);
        }
      }
    });
    const account = JSON.stringify({ targets: result.run.targets, warnings: result.run.warnings, stderr });
    expect(runDir, `a-wheel never started: ${account}`).not.toBe('');
    expect(result.exitCode, account).toBe(ExitCode.fatal);
    expect(result.run.status).toBe('failed');
    expect(stderr).toContain('ERROR: the run dir could not be written (EROFS');
    expect(stderr).toMatch(/Fix: the file system was remounted read-only/);
    expect(stderr).toContain(
      'ERROR: run.json could not be finalized either: on disk it still says the run is running. This run ended failed with exit 2.',
    );
    // On disk: the run as it stood when the file system went read-only (pytorch's finish may or may not be in).
    const onDisk = readRun(runDir);
    expect(onDisk.status).toBe('running');
    expect(['running', 'ok']).toContain(onDisk.targets.pytorch?.status);
  });
});
