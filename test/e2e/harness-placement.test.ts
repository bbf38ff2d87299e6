import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPlanFile } from '../../src/plan/plan-file-io.js';
import {
  formatUploadTable,
  isUploadWithin,
  readData,
  readRun,
  readUploadTruth,
  spawnCli,
  useHarnessBox,
} from './harness-helpers.js';

// Link-aware placement against build-only placement, measured on the fleet in a box. kiln, the node behind WiFi,
// is the fastest compiler here (speed 2: a workstation on WiFi; the double honours fleet.yaml's speed), so a
// build-only placement rationally sends the biggest work to it, and with it the biggest exports over a link 25×
// slower than forge's. Link-aware placement keeps the big exports on wired nodes. On the warm cost model (sccache
// hits after a source change: small builds, full uploads) the model predicts build-only ≈ 4× heft-ls; the test
// holds the measured heft-ls makespan to at most half of build-only's.

const { box, runs, runHarness } = useHarnessBox({
  fleet: { scale: { timeScale: 1 / 150, linkScale: 0.5 }, nodeSpeeds: { kiln: 2 } },
  rootName: 'harness-placement',
  sampleIntervalMs: 1000,
});

/** Bytes the target exports (image + cache), from the costs file the plans were made with. */
function exportBytesOf(costsText: string): Map<string, number> {
  return new Map(
    [...costsText.matchAll(/^cache (\S+) (\d+)$/gm)].map((match) => [match[1]!, Number(match[2])]),
  );
}

describe('placement on the fleet in a box', () => {
  it('link-aware placement beats build-only placement in measured makespan by far (warm costs, after source changes)', async () => {
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
    const buildOnlyDir = await runHarness('build-only', [
      'warm',
      '--costs',
      costs,
      '--strategy',
      'build-only',
    ]);
    running.bumpRevisions();
    const linkAwareDir = await runHarness('heft-ls', ['warm', '--costs', costs, '--strategy', 'heft-ls']);

    // The premise: build-only sends the biggest export to kiln; heft-ls keeps kiln's exports small.
    const bytes = exportBytesOf(readFileSync(costs, 'utf8'));
    const biggest = [...bytes].sort((a, b) => b[1] - a[1])[0]![0];
    const buildOnlyPlan = await readPlanFile(buildOnlyDir);
    const linkAwarePlan = await readPlanFile(linkAwareDir);
    const onKiln = (plan: typeof buildOnlyPlan) => plan.queues.kiln ?? [];
    const kilnBytes = (plan: typeof buildOnlyPlan) =>
      onKiln(plan).reduce((sum, target) => sum + (bytes.get(target) ?? 0), 0);
    console.log(
      `kiln's queue: build-only [${onKiln(buildOnlyPlan).join(', ')}] ${kilnBytes(buildOnlyPlan)} B, heft-ls [${onKiln(linkAwarePlan).join(', ')}] ${kilnBytes(linkAwarePlan)} B`,
    );
    expect(onKiln(buildOnlyPlan)).toContain(biggest);
    expect(kilnBytes(linkAwarePlan)).toBeLessThan(kilnBytes(buildOnlyPlan) / 10);

    const buildOnly = readData(buildOnlyDir);
    const linkAware = readData(linkAwareDir);
    const [measuredBuildOnly, measuredLinkAware] = [
      buildOnly.summary.makespanSeconds!,
      linkAware.summary.makespanSeconds!,
    ];
    console.log(
      `makespan: build-only planned ${buildOnlyPlan.makespanSeconds.toFixed(1)} s, measured ${measuredBuildOnly.toFixed(1)} s; ` +
        `heft-ls planned ${linkAwarePlan.makespanSeconds.toFixed(1)} s, measured ${measuredLinkAware.toFixed(1)} s (ratio ${(measuredLinkAware / measuredBuildOnly).toFixed(2)})`,
    );
    expect(measuredLinkAware).toBeLessThan(0.5 * measuredBuildOnly);

    // Upload seconds and bytes against the registry proxy's own record of each target's requests.
    for (const [name, data] of [
      ['build-only', buildOnly],
      ['heft-ls', linkAware],
    ] as const) {
      const truth = readUploadTruth(running, readRun(runs[name]!));
      console.log(`${name} run, uploads:\n  ${formatUploadTable(data.summary.targets, truth)}`);
      for (const summary of data.summary.targets) {
        const proxy = truth.get(summary.target)!;
        const line = `${name}: ${summary.target} on ${proxy.node}: upload ${summary.uploadSeconds} s ${summary.uploadBytes} B vs the proxy's ${proxy.uploadSeconds} s ${proxy.uploadBytes} B`;
        expect(summary.uploadBytes, line).toBe(proxy.uploadBytes);
        expect(isUploadWithin(summary.uploadSeconds, proxy.uploadSeconds, proxy.uploadSegments), line).toBe(
          true,
        );
      }
    }
  }, 900_000);

  it('--dispatch guided runs the heft-ls plan on the box and records where each target ran', async () => {
    const { fleet: running, root: dir } = box();
    expect(runs['heft-ls'], 'needs the heft-ls run of the test above').toBeDefined();
    running.bumpRevisions();
    const guidedDir = await runHarness('guided', [
      'warm',
      '--costs',
      path.join(dir, 'warm-costs'),
      '--plan',
      runs['heft-ls']!,
      '--dispatch',
      'guided',
    ]);
    const run = readRun(guidedDir);
    const plan = await readPlanFile(guidedDir);
    expect(run).toMatchObject({ dispatch: 'guided', status: 'completed' });
    const data = readData(guidedDir);
    for (const summary of data.summary.targets) {
      expect(summary.node).toBe(run.targets[summary.target]?.node);
      expect(summary.plannedNode).toBe(plan.targets[summary.target]?.node);
    }
    const moved = data.summary.targets.filter((summary) => summary.node !== summary.plannedNode);
    console.log(
      `guided: makespan ${data.summary.makespanSeconds?.toFixed(1)} s, moved: ${moved.map((summary) => `${summary.target} ${summary.plannedNode}→${summary.node}`).join(', ') || 'none'}`,
    );
  }, 300_000);
});
