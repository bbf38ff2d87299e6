// The fleet in a box on the real engine: each node a buildx builder (remote driver) on its own pinned BuildKit, the
// oldest supported buildx/BuildKit pair on kiln, a BuildKit below the product's minimum on anvil. Checked from
// outside the builders: the node's compile cgroup (CPU under its quota), the registry proxy's record (which address
// pushed, how many bytes, how fast) and node_exporter.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBuildkitTrace } from '../../src/collect/buildkit/parse-trace.js';
import {
  findFleetBlocker,
  isUploadRequest,
  readCpuUsageNs,
  readRegistryTruth,
  startFleet,
  type RunningFleet,
} from '../fleet/index.js';
import { unionMs } from '../fleet/outside-truth.js';
import { findToolBinary, pinnedVersion } from '../fleet/real/tools.js';
import { spawnCli } from '../e2e/harness-helpers.js';

const execFileAsync = promisify(execFile);
const oldestBuildx = pinnedVersion('buildx', 'oldest');
const oldestBuildkit = pinnedVersion('buildkit', 'oldest');
const tooOldBuildkit = pinnedVersion('buildkit', 'too-old');
const currentBuildkit = pinnedVersion('buildkit', 'current');
let fleet: RunningFleet | undefined;

beforeAll(async () => {
  const blocker = findFleetBlocker();
  if (blocker) throw new Error(blocker);
  fleet = await startFleet({
    scale: { timeScale: 1 / 600 },
    buildxVersion: oldestBuildx,
    buildkitVersions: { kiln: oldestBuildkit, anvil: tooOldBuildkit },
  });
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
});

function running(): RunningFleet {
  if (!fleet) throw new Error('the fleet did not start (see the beforeAll error)');
  return fleet;
}

async function docker(args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync('docker', args, {
    cwd: running().dir,
    env: { ...process.env, ...running().env },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** node_cpu_seconds_total of every mode but idle, summed, from a node's node_exporter. */
async function readBusySeconds(url: string): Promise<number> {
  const text = await (await fetch(url)).text();
  let busy = 0;
  for (const match of text.matchAll(/^node_cpu_seconds_total\{cpu="\d+",mode="([a-z]+)"\} (\S+)$/gm))
    if (match[1] !== 'idle') busy += Number(match[2]);
  return busy;
}

describe('the real engine in the box', () => {
  it('runs the pinned buildx as the docker CLI plugin, and each node on its own BuildKit release', async () => {
    const { stdout: version } = await docker(['buildx', 'version']);
    expect(version).toContain(`github.com/docker/buildx ${oldestBuildx}`);
    const expected = { forge: currentBuildkit, kiln: oldestBuildkit, anvil: undefined };
    for (const [node, buildkit] of Object.entries(expected)) {
      const { stdout } = await docker(['buildx', 'inspect', '--bootstrap', '--builder', node]);
      expect(stdout, node).toMatch(/^Driver:\s+remote$/m);
      expect(stdout, node).toMatch(/^Status:\s+running$/m);
      // BuildKit before v0.11 (anvil's) reports no version to buildx at all.
      if (buildkit === undefined) expect(stdout, node).not.toMatch(/BuildKit version|Buildkit:/);
      else
        expect(stdout, node).toMatch(
          new RegExp(`^(BuildKit version|Buildkit):\\s+${buildkit.replaceAll('.', '\\.')}$`, 'm'),
        );
    }
    const { stdout: daemon } = await execFileAsync(findToolBinary('buildkit', tooOldBuildkit, 'buildkitd'), [
      '--version',
    ]);
    expect(daemon).toContain(`buildkitd github.com/moby/buildkit ${tooOldBuildkit}`);
  });

  it('a RUN step on the oldest pair computes under the node quota, and its pushes leave through the node link', async () => {
    const kiln = running().nodes.find((node) => node.name === 'kiln')!;
    const metadataFile = path.join(running().dir, 'md-kiln.json');
    const cpuBefore = readCpuUsageNs(kiln.cgroup.workDirs.compileCpuacct);
    const busyBefore = await readBusySeconds(kiln.nodeExporterUrl);
    const startedMs = Date.now();
    await docker([
      'buildx',
      'bake',
      '--builder',
      'kiln',
      '--push',
      '--metadata-file',
      metadataFile,
      'pytorch',
    ]);
    const endedMs = Date.now();
    const cpuSeconds = (readCpuUsageNs(kiln.cgroup.workDirs.compileCpuacct) - cpuBefore) / 1e9;
    // What box-compile was asked to burn: the bake file's BOX_CPU_SECONDS for pytorch.
    const { stdout: printed } = await docker(['buildx', 'bake', '--print', 'pytorch']);
    const print = JSON.parse(printed) as { target: { pytorch: { args: Record<string, string> } } };
    const asked = Number(print.target.pytorch.args.BOX_CPU_SECONDS);
    expect(asked).toBeGreaterThan(0);
    expect(cpuSeconds, `compile cgroup CPU ${cpuSeconds} s, asked ${asked} s`).toBeGreaterThanOrEqual(
      asked * 0.95,
    );
    // No faster than the quota allows.
    expect((endedMs - startedMs) / 1000).toBeGreaterThanOrEqual((asked / kiln.cgroup.quotaCores) * 0.95);
    expect(await readBusySeconds(kiln.nodeExporterUrl)).toBeGreaterThan(busyBefore + asked * 0.9);
    const uploads = readRegistryTruth(running().services.registryTruthPath).filter(
      (line) => isUploadRequest(line) && line.firstByteMs >= startedMs && line.firstByteMs <= endedMs,
    );
    expect(uploads.length).toBeGreaterThan(0);
    expect(new Set(uploads.map((line) => line.clientIp))).toEqual(new Set([kiln.address]));
    const bytes = uploads.reduce((sum, line) => sum + line.requestBytes, 0);
    const seconds = unionMs(uploads.map((line) => [line.firstByteMs, line.endMs])) / 1000;
    // tbf lets 20 ms of traffic through at once each time its bucket refills.
    expect(seconds + 0.02 * uploads.length).toBeGreaterThanOrEqual(bytes / (kiln.linkMbps * 1e6));

    // The record's trace, as `history trace` of the oldest pair gives it, read by the product's parser.
    const metadata = JSON.parse(readFileSync(metadataFile, 'utf8')) as Record<string, Record<string, string>>;
    const ref = metadata.pytorch?.['buildx.build.ref'] ?? '';
    expect(ref).toMatch(/^kiln\/kiln0\/\w+$/);
    const { stdout: trace } = await docker([
      'buildx',
      'history',
      'trace',
      '--builder',
      'kiln',
      ref.split('/').at(-1)!,
    ]);
    const parsed = parseBuildkitTrace(trace, { source: 'kiln trace', target: 'pytorch' });
    expect(parsed.trace.totalSteps).toBeGreaterThan(0);
    expect(parsed.trace.steps.some((step) => step.instruction?.startsWith('RUN box-compile'))).toBe(true);
    const traced = parsed.trace.uploads.reduce((sum, upload) => sum + (upload.bytes ?? 0), 0);
    expect(traced, `trace ${traced} B, proxy ${bytes} B`).toBe(bytes);
  });

  it('rocm-perf refuses a builder on a BuildKit older than its minimum, naming the builder, the version and the fix', async () => {
    const result = await spawnCli(running(), [
      'warm',
      '--targets',
      'pytorch',
      '--root',
      path.join(running().dir, 'runs'),
    ]);
    expect(result.exitCode).not.toBe(0);
    const stderr = String(result.stderr);
    // anvil's BuildKit prints no version, so preflight asks it for its build history, which it does not have.
    expect(stderr).toMatch(
      /builder anvil: `docker buildx history ls --builder anvil --format json` failed: .*Unimplemented.*ListenBuildHistory.* \(its BuildKit has no build-history API: older than 0\.11\.0/,
    );
    expect(stderr).toMatch(/Fix: /);
    expect(stderr).not.toContain('builder kiln');
    expect(stderr).not.toContain('builder forge');
  });
});
