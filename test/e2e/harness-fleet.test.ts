import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boxTargets } from '../fleet/index.js';
import {
  expectedRunFiles,
  formatUploadAlignment,
  formatUploadTable,
  isUploadWithin,
  readCgroupCpuSeconds,
  readData,
  readLines,
  readRun,
  readSccacheServerSeconds,
  readStoredBytes,
  readUploadTruth,
  sampleCgroupCpu,
  spawnCli,
  useHarnessBox,
  type UploadTruth,
} from './harness-helpers.js';
import type { DataFile, RunFile } from '../../src/artifacts/index.js';
import type { RunningFleet } from '../fleet/index.js';
import { cgroupSampleIntervalMs, measureStepOverhead, readQuotaWaitSeconds } from '../fleet/outside-truth.js';

// cold and warm on the fleet in a box (4 nodes, kiln WiFi-like, two BuildKit releases): complete run dirs, and
// every upload and build figure against what happened outside the measured path — the registry proxy's own request
// record (timings, body bytes) and each node's cgroup CPU time. Placement: harness-placement.test.ts.

const { box, runs, runHarness } = useHarnessBox({
  fleet: { scale: { timeScale: 1 / 150, linkScale: 0.5 } },
  rootName: 'harness-runs',
  sampleIntervalMs: 500,
});

/** Per target: upload seconds within 2 % + 5 ms of the proxy's, bytes exact, and no faster than the link allows. */
function expectUploadsMatchProxy(
  fleet: RunningFleet,
  runDir: string,
  run: RunFile,
  data: DataFile,
): Map<string, UploadTruth> {
  const truth = readUploadTruth(fleet, run);
  console.log(`${run.harness} run, uploads:\n  ${formatUploadTable(data.summary.targets, truth)}`);
  expect([...truth.keys()].sort()).toEqual([...boxTargets].sort());
  for (const summary of data.summary.targets) {
    const entry = truth.get(summary.target)!;
    const node = fleet.nodes.find((candidate) => candidate.name === entry.node)!;
    const line = `${summary.target} on ${entry.node}: report ${summary.uploadSeconds} s ${summary.uploadBytes} B, proxy ${entry.uploadSeconds} s ${entry.uploadBytes} B`;
    expect(entry.uploadBytes, line).toBeGreaterThan(0);
    expect(summary.uploadBytes, line).toBe(entry.uploadBytes);
    const within = isUploadWithin(summary.uploadSeconds, entry.uploadSeconds, entry.uploadSegments);
    const outcome = run.targets[summary.target];
    expect
      .soft(
        within,
        within || outcome?.status !== 'ok'
          ? line
          : `${line}\n${formatUploadAlignment(runDir, summary.target, entry, outcome.startedAtMs)}`,
      )
      .toBe(true);
    // tbf lets a burst of 20 ms of traffic through at once each time its bucket refills.
    const burstSeconds = 0.02 * entry.requests.length;
    expect(summary.uploadSeconds! + burstSeconds, line).toBeGreaterThanOrEqual(
      entry.uploadBytes / (node.linkMbps * 1e6),
    );
  }
  return truth;
}

/** The registry summary's cache and image bytes equal what the registry stored from the nodes in the run. */
function expectStoredBytesMatchProxy(fleet: RunningFleet, run: RunFile, data: DataFile): void {
  const stored = readStoredBytes(fleet, run);
  console.log(
    `${run.harness} run, registry bytes stored: proxy ${JSON.stringify(stored)}, report cache ${data.summary.registry.cache.bytesWritten} image ${data.summary.registry.image.bytesWritten}`,
  );
  expect(data.summary.registry.writesWithoutSize).toBe(0);
  expect(data.summary.registry.cache.bytesWritten).toBe(stored.cache);
  expect(data.summary.registry.image.bytesWritten).toBe(stored.image);
}

/** Each target's step overhead on the node the run placed it on (measureStepOverhead), all nodes at once. */
async function probeStepOverheads(
  fleet: RunningFleet,
  run: RunFile,
): Promise<Map<string, { node: string; seconds: number }>> {
  const overheads = new Map<string, { node: string; seconds: number }>();
  const byNode = new Map<string, string[]>();
  for (const [target, outcome] of Object.entries(run.targets))
    byNode.set(outcome.node, [...(byNode.get(outcome.node) ?? []), target]);
  // One probe at a time per node (a node's targets ran one by one), the nodes at once.
  await Promise.all(
    [...byNode].map(async ([node, targets]) => {
      for (const target of targets)
        overheads.set(target, { node, seconds: await measureStepOverhead(fleet, node, target) });
    }),
  );
  return overheads;
}

describe('cold and warm on the fleet in a box', () => {
  it('cold: finishes with a complete run dir, writing only into the coldrun namespace and its own sccache prefix; uploads as the registry saw them', async () => {
    const runDir = await runHarness('cold', ['cold']);
    const run = readRun(runDir);
    expect(run).toMatchObject({
      harness: 'cold',
      mode: 'cold',
      namespace: 'rocm-coldrun',
      status: 'completed',
    });
    expect(readdirSync(runDir)).toEqual(expect.arrayContaining(expectedRunFiles(boxTargets)));
    const sampled = new Set(readLines(path.join(runDir, 'samples.jsonl')).map((sample) => sample.node));
    expect([...sampled].sort()).toEqual(['anvil', 'bench', 'forge', 'kiln']);
    const writes = readLines(path.join(runDir, 'zot.jsonl')).filter((line) =>
      ['PUT', 'POST', 'PATCH', 'DELETE'].includes(String(line.method)),
    );
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.filter((line) => !String(line.path).startsWith('/v2/rocm-coldrun/'))).toEqual([]);
    const sccache = readLines(path.join(runDir, 'sccache.log')).filter((line) =>
      ['PUT', 'MKCOL', 'GET'].includes(String(line.method)),
    );
    expect(sccache.length).toBeGreaterThan(0);
    expect(sccache.filter((line) => String(line.uri).startsWith('/sccache/rocm/gfx1201/'))).toEqual([]);
    const entries = sccache.filter((line) => ['PUT', 'GET'].includes(String(line.method)));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.filter((line) => !String(line.uri).startsWith(`/sccache/${run.sccachePrefix}/`))).toEqual(
      [],
    );
    const data = readData(runDir);
    expectUploadsMatchProxy(box().fleet, runDir, run, data);
    expectStoredBytesMatchProxy(box().fleet, run, data);
    expect(data.summary.registry.cache.bytesWritten).toBe(0);
  });

  it('warm: caches on and pushed; uploads as the registry saw them, build seconds as the node’s cgroup spent CPU', async () => {
    // Probed on each target's node before the run (where the cold run placed it) and after it (where this one did).
    const before = runs.cold
      ? await probeStepOverheads(box().fleet, readRun(runs.cold))
      : new Map<string, { node: string; seconds: number }>();
    const stopSampling = sampleCgroupCpu(box().fleet);
    const runDir = await runHarness('warm', ['warm']);
    const cpu = stopSampling();
    const run = readRun(runDir);
    const after = await probeStepOverheads(box().fleet, run);
    expect(run).toMatchObject({
      harness: 'warm',
      mode: 'warm',
      namespace: 'rocm',
      sccachePrefix: 'rocm/gfx1201',
      status: 'completed',
    });
    expect(readdirSync(runDir)).toEqual(expect.arrayContaining(expectedRunFiles(boxTargets)));
    const data = readData(runDir);
    expect(data.run.harness).toBe('warm');
    const truth = expectUploadsMatchProxy(box().fleet, runDir, run, data);
    expectStoredBytesMatchProxy(box().fleet, run, data);
    expect(data.summary.registry.cache.bytesWritten).toBeGreaterThan(0);
    expect([...truth.values()].reduce((sum, entry) => sum + entry.injectedFailures, 0)).toBeGreaterThan(0);
    const table: string[] = [];
    const sums = { build: 0, bound: 0 };
    for (const summary of data.summary.targets) {
      const outcome = run.targets[summary.target]!;
      if (outcome.status !== 'ok') throw new Error(`${summary.target} did not finish`);
      const node = box().fleet.nodes.find((candidate) => candidate.name === outcome.node)!;
      const cpuSeconds = readCgroupCpuSeconds(cpu.get(node.name)!, outcome.startedAtMs, outcome.finishedAtMs);
      const atQuota = cpuSeconds / node.cgroup.quotaCores;
      const sccacheSeconds = readSccacheServerSeconds(
        box().fleet,
        node.address,
        outcome.startedAtMs,
        outcome.finishedAtMs,
      );
      const probes = [before.get(summary.target), after.get(summary.target)!]
        .filter((probe) => probe?.node === node.name)
        .map((probe) => probe!.seconds);
      const overhead = Math.max(...probes);
      const quotaWait = readQuotaWaitSeconds(box().fleet, node, summary.target);
      table.push(
        `${summary.target} on ${node.name} (quota ${node.cgroup.quotaCores} cores): build ${summary.buildSeconds?.toFixed(2)} s, cgroup CPU ${cpuSeconds.toFixed(2)} s = ${atQuota.toFixed(2)} s at quota, nginx served sccache ${sccacheSeconds.toFixed(2)} s, rest ${((summary.buildSeconds ?? 0) - atQuota).toFixed(2)} s; its build without the CPU ${probes.map((seconds) => seconds.toFixed(2)).join(' s, ')} s, quota waits ≤ ${quotaWait.toFixed(2)} s`,
      );
      // No node computes faster than its quota: build seconds at least the CPU at quota, less what sampling the
      // counter every 20 ms can misplace at each end of the window.
      expect(summary.buildSeconds, table.at(-1)).not.toBeNull();
      expect(
        summary.buildSeconds! + (2 * cgroupSampleIntervalMs) / 1000,
        table.at(-1),
      ).toBeGreaterThanOrEqual(atQuota);
      sums.build += summary.buildSeconds!;
      sums.bound += atQuota + overhead + quotaWait;
    }
    console.log(`warm run, build seconds against cgroup CPU:\n  ${table.join('\n  ')}`);
    // What a build adds beyond its CPU at quota is what its steps cost the node without the compile (the loads, FROM,
    // the COPYs, the RUN's container, box-compile's sccache traffic and wheel), probed in this run on the same node
    // (measureStepOverhead), and what the quota makes each compile unit's burn wait (readQuotaWaitSeconds): no
    // constant slack. Summed over the run, so one target meeting a busier moment than both
    // of its probes is carried by the others (docs/fleet-in-a-box.md, "Truth").
    expect(
      sums.build,
      `Σ build ${sums.build.toFixed(2)} s, Σ (CPU at quota + its build without the CPU + quota waits) ${sums.bound.toFixed(2)} s`,
    ).toBeLessThanOrEqual(sums.bound);
  });

  it('costs --from the warm run rewrites target-costs from traces; the cold run’s bytes become image lines, never cache ones', async () => {
    const { fleet: running } = box();
    const out = path.join(box().root, 'target-costs.derived');
    const warm = await spawnCli(running, ['costs', '--from', runs.warm!, '--out', out]);
    expect(warm.exitCode, String(warm.stderr)).toBe(0);
    const text = readFileSync(out, 'utf8');
    const truth = readUploadTruth(running, readRun(runs.warm!));
    for (const [target, entry] of truth) expect(text).toContain(`cache ${target} ${entry.uploadBytes}\n`);
    const cold = await spawnCli(running, ['costs', '--from', runs.cold!, '--dry-run']);
    expect(cold.exitCode).toBe(0);
    expect(String(cold.stderr)).toMatch(
      /is a cold run: its byte figures are written as `image` lines and the cache lines kept/,
    );
    // What the cold run pushed (its image: the cache export is cleared), as the registry proxy recorded it.
    const coldText = String(cold.stdout);
    const coldTruth = readUploadTruth(running, readRun(runs.cold!));
    expect(coldTruth.size).toBeGreaterThan(0);
    for (const [target, entry] of coldTruth) {
      expect(entry.uploadBytes, target).toBeGreaterThan(0);
      expect(coldText).toContain(`image ${target} ${entry.uploadBytes}\n`);
    }
    // The cache lines are the current file's, not the cold run's bytes.
    for (const [target, entry] of coldTruth)
      expect(coldText).not.toContain(`cache ${target} ${entry.uploadBytes}\n`);
  });
});
