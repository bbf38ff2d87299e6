import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isManifestPut, readRegistryTruth } from '../fleet/registry-truth.js';
import { readData, readLines, readRun, spawnCli, useHarnessBox, runDirOf } from './harness-helpers.js';

// A fresh cold namespace builds the whole stack from nothing (issue 17 item 6). The box's bake graph has the base
// image as a target outside the run's groups; `PERF_COLD_NAMESPACE=-fresh` points the cold run at a namespace
// the registry has never seen, so preflight finds rocm-base missing there and bootstrap builds and pushes it before
// the measured run. The registry proxy's own record says when each manifest was stored: the base image before any
// measured target's first request, and the makespan and the bootstrap time each on their side of that line.

const { box } = useHarnessBox({
  fleet: { scale: { timeScale: 1 / 300 } },
  rootName: 'harness-bootstrap',
  sampleIntervalMs: 500,
});

const namespace = 'rocm-coldrun-fresh';
const measuredTargets = ['pytorch', 'pytorch-wheel', 'triton-wheel'];

describe('a cold run into a fresh namespace', () => {
  it('bootstraps the base image first (pushed, not sampled), then measures the wheels; bootstrap time is shown apart from the makespan', async () => {
    const { fleet, root } = box();
    const result = await spawnCli(
      fleet,
      ['cold', '--targets', measuredTargets.join(','), '--root', root, '--sample-interval-ms', '500'],
      { PERF_COLD_NAMESPACE: '-fresh' },
    );
    expect(result.exitCode, String(result.stderr).slice(-3000)).toBe(0);
    const runDir = runDirOf(String(result.stdout));
    const run = readRun(runDir);
    expect(run).toMatchObject({
      harness: 'cold',
      namespace,
      status: 'completed',
      bootstrapped: ['rocm-base'],
    });
    expect(Object.keys(run.targets).sort()).toEqual([...measuredTargets].sort());

    // The registry's side: when the base image and each measured image were stored in the fresh namespace.
    const truth = readRegistryTruth(fleet.services.registryTruthPath).filter(
      (line) => line.firstByteMs >= run.startedAtMs,
    );
    const stored = (repository: string) =>
      truth.find(
        (line) =>
          isManifestPut(line) && line.status === 201 && line.path === `/v2/${repository}/manifests/gfx1201`,
      )?.endMs;
    const baseStoredMs = stored(`${namespace}/rocm-base`);
    expect(baseStoredMs, 'the base image was pushed into the fresh namespace').toBeDefined();
    const firstMeasuredRequestMs = Math.min(
      ...truth
        .filter((line) =>
          measuredTargets.some((target) => line.path.startsWith(`/v2/${namespace}/${target}/`)),
        )
        .map((line) => line.firstByteMs),
    );
    expect(firstMeasuredRequestMs).toBeGreaterThan(baseStoredMs!);
    for (const target of measuredTargets) expect(stored(`${namespace}/${target}`), target).toBeDefined();

    // Not sampled: the first sample is after the base image was stored.
    const samples = readLines(path.join(runDir, 'samples.jsonl'));
    expect(samples.length).toBeGreaterThan(0);
    const firstSampleMs = Math.min(...samples.map((sample) => Number(sample.tsMs)));
    expect(Number.isFinite(firstSampleMs), JSON.stringify(samples[0])).toBe(true);
    expect(firstSampleMs).toBeGreaterThan(baseStoredMs!);

    // The report: the bootstrap time covers at least the bootstrap node's registry work as the proxy saw it (its
    // first request, the cache import, to the base image stored), and ends before any measured target's first
    // request; the makespan starts after it (no more than from the base image stored to the run's end).
    const data = readData(runDir);
    const bootstrapNode = fleet.nodes.find((node) => node.name === run.bootstrap?.[0]?.node);
    expect(bootstrapNode, JSON.stringify(run.bootstrap)).toBeDefined();
    const nodeFirstRequestMs = Math.min(
      ...truth.filter((line) => line.clientIp === bootstrapNode!.address).map((line) => line.firstByteMs),
    );
    const baseWorkSeconds = (baseStoredMs! - nodeFirstRequestMs) / 1000;
    expect(data.summary.bootstrap?.targets.map((build) => build.target)).toEqual(['rocm-base']);
    expect(data.summary.bootstrap!.seconds).toBeGreaterThanOrEqual(baseWorkSeconds);
    expect(data.summary.bootstrap!.seconds).toBeLessThanOrEqual(
      (firstMeasuredRequestMs - run.startedAtMs) / 1000,
    );
    expect(data.summary.makespanSeconds!).toBeLessThanOrEqual((run.finishedAtMs! - baseStoredMs!) / 1000);
    const report = readFileSync(path.join(runDir, 'report.md'), 'utf8');
    expect(report).toMatch(
      /Bootstrap before the measured run: .* building rocm-base on \w+ \(.*\), warm and pushed, not sampled, and not in the makespan above\./,
    );
    console.log(
      `bootstrap ${data.summary.bootstrap!.seconds} s (proxy: ${bootstrapNode!.name}'s first request to base image stored ${baseWorkSeconds.toFixed(2)} s), makespan ${data.summary.makespanSeconds} s`,
    );
  }, 600_000);
});
