import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFleetBlocker, startFleet, type RunningFleet } from '../fleet/index.js';
import { pinnedVersion } from '../fleet/real/tools.js';
import { createTempDir } from '../helpers/daemons/index.js';
import {
  expectedRunFiles,
  listRunDirs,
  readData,
  readLines,
  readRun,
  runDirOf,
  spawnCli,
} from './harness-helpers.js';

// Faults on the fleet in a box: a node_exporter killed mid-run, a failing target, SIGINT mid-run, and the
// registry down at preflight.

const tooOldBuildx = pinnedVersion('buildx', 'too-old');
let fleet: RunningFleet | undefined;
let tmp: { path: string; remove: () => void } | undefined;

beforeAll(async () => {
  const blocker = findFleetBlocker();
  if (blocker) throw new Error(blocker);
  fleet = await startFleet({ scale: { timeScale: 1 / 1000 } });
  tmp = createTempDir('harness-faults');
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
  tmp?.remove();
});

const box = () => {
  if (!fleet || !tmp) throw new Error('the fleet did not start (see the beforeAll error)');
  return { fleet, dir: tmp.path };
};

const rootFor = (name: string) => path.join(box().dir, name);

/** Waits until a run under `root` has started its measured phase; returns its dir. */
async function waitForMeasuredRun(root: string, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const name of listRunDirs(root)) {
      const file = path.join(root, name, 'run.json');
      if (!existsSync(file)) continue;
      const run = JSON.parse(readFileSync(file, 'utf8')) as {
        measuredStartedAtMs: number | null;
        targets: Record<string, { status: string }>;
      };
      if (
        run.measuredStartedAtMs !== null &&
        Object.values(run.targets).some((target) => target.status === 'running')
      )
        return path.join(root, name);
    }
    await delay(200);
  }
  throw new Error(`no measured run under ${root} within ${timeoutMs} ms`);
}

/** A copy of the box's fleet.yaml beside it (relative paths keep working), edited by `change`. */
function writeFleetVariant(name: string, change: (text: string) => string): string {
  const file = path.join(path.dirname(box().fleet.fleetPath), name);
  writeFileSync(file, change(readFileSync(box().fleet.fleetPath, 'utf8')));
  return file;
}

describe('faults on the fleet in a box', () => {
  it('registry down at preflight: a clear error, exit 2, nothing started', async () => {
    const fleetPath = writeFleetVariant('fleet-registry-down.yaml', (text) =>
      text.replace(/url: http:\/\/[0-9.]+:\d+\n(\s+name: rocm)/, 'url: http://127.0.0.1:9\n$1'),
    );
    const before = await box().fleet.countBuildRecords();
    const result = await spawnCli(box().fleet, ['cold', '--root', rootFor('down')], {
      PERF_FLEET: fleetPath,
    });
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toMatch(
      /^error: preflight found 1 problem\(s\); nothing was started\n\s+registry http:\/\/127\.0\.0\.1:9\/v2\/ does not answer: .*Fix: start the registry, or correct registry\.url in fleet\.yaml/m,
    );
    expect(listRunDirs(rootFor('down'))).toEqual([]);
    expect(await box().fleet.countBuildRecords()).toBe(before);
  });

  it('a buildx older than the run needs: refused at preflight with the version found, the minimum and the fix', async () => {
    const before = await box().fleet.countBuildRecords();
    // The pinned `too-old` buildx (test/tools/versions.txt): a real release before `history` existed.
    const restore = box().fleet.useBuildx(tooOldBuildx);
    try {
      const result = await spawnCli(box().fleet, ['warm', '--root', rootFor('old-buildx')]);
      expect(result.exitCode).toBe(2);
      const stderr = String(result.stderr);
      expect(stderr).toMatch(/^error: preflight found 2 problem\(s\); nothing was started$/m);
      const version = tooOldBuildx.replace(/^v/, '').replaceAll('.', '\\.');
      expect(stderr).toMatch(
        new RegExp(
          `^\\s+buildx ${version} is older than 0\\.21\\.0, the first with \`history trace\` .*Fix: upgrade buildx`,
          'm',
        ),
      );
      expect(stderr).toMatch(
        new RegExp(
          `^\\s+buildx ${version} is older than 0\\.23\\.0, the first with \`history ls --filter\` \\(the record of a failed target\\)\\. Fix: upgrade buildx`,
          'm',
        ),
      );
      expect(listRunDirs(rootFor('old-buildx'))).toEqual([]);
    } finally {
      restore();
    }
    expect(await box().fleet.countBuildRecords()).toBe(before);
  });

  it('a failing target: its dependents are skipped, the other queues finish, exit 1, and the report says why', async () => {
    const print = JSON.parse(readFileSync(box().fleet.files.bakePrintPath, 'utf8')) as {
      target: Record<string, { contexts?: Record<string, string> }>;
    };
    const host = new URL(box().fleet.services.registryUrl).host;
    // Its base image from a repository the registry does not hold: BuildKit resolves only the contexts a
    // Dockerfile uses, so the failing input must be one triton-wheel's FROM reads.
    print.target['triton-wheel']!.contexts = {
      ...print.target['triton-wheel']!.contexts,
      'rocm-base': `docker-image://${host}/elsewhere/missing:1`,
    };
    writeFileSync(path.join(path.dirname(box().fleet.fleetPath), 'failing-bake.json'), JSON.stringify(print));
    const fleetPath = writeFleetVariant('fleet-failing.yaml', (text) => {
      const changed = text.replace('print: bake-print.{arch}.json', 'file: failing-bake.json');
      if (changed === text)
        throw new Error(`the box's fleet.yaml has no bake print line to replace:\n${text}`);
      return changed;
    });
    const result = await spawnCli(box().fleet, ['cold', '--root', rootFor('failing')], {
      PERF_FLEET: fleetPath,
    });
    expect(result.exitCode, String(result.stderr).slice(-2000)).toBe(1);
    const runDir = runDirOf(String(result.stdout));
    const run = readRun(runDir);
    expect(run.status).toBe('failed');
    expect(run.targets['triton-wheel']).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('elsewhere/missing') as unknown,
    });
    expect(run.targets['vllm-wheel']).toMatchObject({
      status: 'skipped',
      reason: 'dependency triton-wheel failed',
    });
    for (const target of ['pytorch', 'pytorch-wheel', 'torchvision-wheel', 'bitsandbytes-wheel'])
      expect(run.targets[target]?.status).toBe('ok');
    // A failed bake writes no metadata: its record is found with `history ls --filter status=error`, its trace kept.
    expect(run.targets['triton-wheel']).toMatchObject({
      buildRef: expect.stringMatching(/^\w+\/\w+\/\w+$/) as unknown,
    });
    expect(existsSync(path.join(runDir, 'trace-triton-wheel.json'))).toBe(true);
    const data = readData(runDir);
    const failed = data.summary.targets.find((target) => target.target === 'triton-wheel');
    expect(failed?.status).toBe('failed');
    expect(failed?.totalSeconds).toBeGreaterThan(0);
    expect(readFileSync(path.join(runDir, 'report.md'), 'utf8')).toContain('triton-wheel');
  });

  it('SIGINT mid-run: stops launching, cancels builds, finalizes what was collected and exits 130', async () => {
    const root = rootFor('sigint');
    const child = spawnCli(box().fleet, ['cold', '--root', root]);
    const runDir = await waitForMeasuredRun(root);
    await delay(1_000);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode, String(result.stderr).slice(-2000)).toBe(130);
    const run = readRun(runDir);
    expect(run).toMatchObject({ status: 'interrupted', exitCode: 130, interruptedBy: 'SIGINT' });
    expect(run.finishedAtMs).not.toBeNull();
    expect(
      Object.values(run.targets).some(
        (target) => target.status === 'skipped' && target.reason === 'interrupted',
      ),
    ).toBe(true);
    expect(
      Object.values(run.targets).some((target) => target.status === 'running' || target.status === 'pending'),
    ).toBe(false);
    const files = readdirSync(runDir);
    expect(files).toEqual(
      expect.arrayContaining([
        'samples.jsonl',
        'sccache.log',
        'zot.jsonl',
        'artifacts.txt',
        'run.json',
        'plan.json',
        'data.json',
        'report.md',
        'index.html',
      ]),
    );
    expect(readData(runDir).run.status).toBe('interrupted');
    // A build cancelled mid-way keeps its record (status canceled) and partial trace, as buildkitd does: the
    // target reads as interrupted, not failed, and its trace is in the run dir.
    const interrupted = Object.entries(run.targets).filter(([, target]) => target.status === 'interrupted');
    expect(interrupted.length, JSON.stringify(run.targets)).toBeGreaterThan(0);
    for (const [name, target] of interrupted) {
      expect(target, name).toMatchObject({ buildRef: expect.stringMatching(/^\w+\/\w+\/\w+$/) as unknown });
      expect(files, name).toContain(`trace-${name}.json`);
    }
    const summary = readData(runDir).summary.targets.find((entry) => entry.target === interrupted[0]![0]);
    expect(summary?.status).toBe('interrupted');
    expect(readFileSync(path.join(runDir, 'report.md'), 'utf8')).not.toMatch(/missing for a finished target/);
  });

  it('a node_exporter killed mid-run: a gap in its samples, and the run completes', async () => {
    const root = rootFor('exporter');
    const kiln = box().fleet.nodes.find((node) => node.name === 'kiln')!;
    const child = spawnCli(box().fleet, ['cold', '--root', root, '--sample-interval-ms', '250']);
    const runDir = await waitForMeasuredRun(root);
    const pids = execFileSync('ip', ['netns', 'pids', kiln.netns], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const exporter = pids.find(
      (pid) =>
        existsSync(`/proc/${pid}/comm`) &&
        readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('prometheus-node'),
    );
    expect(exporter).toBeDefined();
    process.kill(Number(exporter), 'SIGKILL');
    const killedAtMs = Date.now();
    const result = await child;
    expect(result.exitCode, String(result.stderr).slice(-2000)).toBe(0);
    const run = readRun(runDir);
    expect(run.status).toBe('completed');
    expect(readdirSync(runDir)).toEqual(expect.arrayContaining(expectedRunFiles(Object.keys(run.targets))));
    const samples = readLines(path.join(runDir, 'samples.jsonl'));
    const kilnGaps = samples.filter(
      (sample) => sample.node === 'kiln' && sample.ok === false && Number(sample.tsMs) >= killedAtMs - 1_000,
    );
    expect(kilnGaps.length).toBeGreaterThan(0);
    expect(
      samples.some(
        (sample) => sample.node === 'forge' && sample.ok === true && Number(sample.tsMs) > killedAtMs,
      ),
    ).toBe(true);
    expect(readData(runDir).summary.nodes.find((node) => node.node === 'kiln')?.sampleGaps).toBeGreaterThan(
      0,
    );
  });
});
