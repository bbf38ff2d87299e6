import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFleetBlocker, startFleet, type RunningFleet } from '../fleet/index.js';
import { createTempDir } from '../helpers/daemons/index.js';
import { formatUploadTable, isWithin, readData, readRun, readTruth, runDirOf, spawnCli } from './harness-helpers.js';

// Link-aware placement against build-only placement, measured on the fleet in a box. Slower scale (1/50) than the
// other harness tests, so the per-invocation overhead of the docker double (a few seconds) does not drown the
// placement: the WiFi node's uploads last long enough to decide the makespan.

let fleet: RunningFleet | undefined;
let root: { path: string; remove: () => void } | undefined;
const runs: Record<string, string> = {};

beforeAll(async () => {
  const blocker = findFleetBlocker();
  if (blocker) throw new Error(blocker);
  fleet = await startFleet({ scale: { timeScale: 1 / 50, linkScale: 0.5 } });
  root = createTempDir('harness-placement');
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
  root?.remove();
});

const box = () => {
  if (!fleet || !root) throw new Error('the fleet did not start (see the beforeAll error)');
  return { fleet, root: root.path };
};

async function runHarness(name: string, args: string[]): Promise<string> {
  const { fleet: running, root: dir } = box();
  const result = await spawnCli(running, [...args, '--root', dir, '--sample-interval-ms', '1000']);
  expect(result.exitCode, `${args.join(' ')} failed:\n${String(result.stderr).slice(-3000)}`).toBe(0);
  runs[name] = runDirOf(String(result.stdout));
  return runs[name];
}

describe('placement on the fleet in a box', () => {
  it('link-aware placement beats build-only placement in measured makespan (warm costs, after source changes)', async () => {
    const { fleet: running, root: dir } = box();
    // The product's own loop: a warm run after a source change (layer cache misses, sccache hits), its costs
    // derived with `costs --from`, then both placements measured on that warm cost model.
    await runHarness('warm-first', ['warm']);
    running.bumpRevisions();
    const seed = await runHarness('warm-seed', ['warm']);
    const costs = path.join(dir, 'warm-costs');
    const derived = await spawnCli(running, ['costs', '--from', seed, '--out', costs]);
    expect(derived.exitCode, String(derived.stderr)).toBe(0);
    running.bumpRevisions();
    const buildOnly = readData(await runHarness('build-only', ['warm', '--costs', costs, '--strategy', 'build-only']));
    running.bumpRevisions();
    const linkAware = readData(await runHarness('heft-ls', ['warm', '--costs', costs, '--strategy', 'heft-ls']));
    console.log(`measured makespan: build-only ${buildOnly.summary.makespanSeconds?.toFixed(1)} s, heft-ls ${linkAware.summary.makespanSeconds?.toFixed(1)} s`);
    expect(linkAware.summary.makespanSeconds).toBeLessThan(buildOnly.summary.makespanSeconds!);
    // Upload seconds against what the box did (the union of its upload requests, data.json's definition), 10 %;
    // bytes ÷ link is printed for information only (docs/harness.md).
    for (const [name, data] of [['build-only', buildOnly], ['heft-ls', linkAware]] as const) {
      const truth = readTruth(running, readRun(runs[name]!));
      console.log(`${name} run, upload seconds:\n  ${formatUploadTable(data.summary.targets, truth)}`);
      for (const summary of data.summary.targets) {
        const injected = truth.get(summary.target)!;
        expect(isWithin(summary.uploadSeconds, injected.uploadSeconds, 0.1), `${name}: ${summary.target} on ${injected.node}: upload ${summary.uploadSeconds} s vs the box's ${injected.uploadSeconds} s`).toBe(true);
      }
    }
  }, 900_000);
});
