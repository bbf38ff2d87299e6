import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boxTargets } from '../fleet/index.js';
import { readPlanFile } from '../../src/run-dir/plan-file-io.js';
import {
  formatUploadTable,
  isUploadWithin,
  readData,
  readDependencies,
  readImageManifestStoredMs,
  readRun,
  readRunWindow,
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
  fleet: { scale: { timeScale: 1 / 300, linkScale: 0.5 }, nodeSpeeds: { kiln: 2 } },
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

  it('--dispatch guided finishes measurably sooner than fixed when a queue overruns its plan, and starts no target before its dependencies are pushed', async () => {
    const { fleet: running, root: dir } = box();
    const costsPath = path.join(dir, 'warm-costs');
    expect(runs['heft-ls'], 'needs the warm costs of the test above').toBeDefined();
    const costsText = readFileSync(costsPath, 'utf8');
    const dependencies = readDependencies(running);
    // A plan that underestimates one target twenty times (its build figure cut to a twentieth) and queues a second
    // one behind it on the same node. At run time the first overruns its plan while the second is ready: fixed
    // queues make the second wait; guided dispatch should move it to a node gone idle. Both are targets nothing
    // waits for, so only the dispatch decides when the run ends.
    const isLeaf = (name: string) =>
      ![...dependencies.values()].some((deps) => deps.includes(name)) &&
      (dependencies.get(name)?.length ?? 0) > 0;
    const buildOf = (name: string) =>
      Number(new RegExp(`^build ${name} (\\d+(?:\\.\\d+)?)$`, 'm').exec(costsText)?.[1] ?? Number.NaN);
    // The overrunning target: the longest leaf. The one behind it: the next longest leaf that waits only for targets
    // that wait for nothing (pytorch), so it is ready long before the overrun ends.
    const leaves = boxTargets.filter(isLeaf).sort((a, b) => buildOf(b) - buildOf(a));
    const target = leaves[0]!;
    const doctored = path.join(dir, 'costs-overrun');
    writeFileSync(
      doctored,
      costsText.replace(
        new RegExp(`^build ${target} .*$`, 'm'),
        `build ${target} ${(buildOf(target) / 20).toFixed(2)}`,
      ),
    );
    const planDir = path.join(dir, 'plan-overrun');
    const planned = await spawnCli(running, ['plan', '--costs', doctored, '--out', planDir]);
    expect(planned.exitCode, String(planned.stderr)).toBe(0);
    const planPath = path.join(planDir, 'plan.json');
    const plan = JSON.parse(readFileSync(planPath, 'utf8')) as {
      queues: Record<string, string[]>;
      targets: Record<string, { node: string }>;
    };
    const node = plan.targets[target]!.node;
    const behind = leaves.find(
      (name) =>
        name !== target &&
        plan.targets[name]!.node !== node &&
        (dependencies.get(name) ?? []).every((dep) => (dependencies.get(dep)?.length ?? 0) === 0),
    )!;
    const from = plan.targets[behind]!.node;
    plan.queues[from] = plan.queues[from]!.filter((name) => name !== behind);
    plan.queues[node]!.splice(plan.queues[node]!.indexOf(target) + 1, 0, behind);
    plan.targets[behind]!.node = node;
    writeFileSync(planPath, JSON.stringify(plan, null, 2));
    await readPlanFile(planDir);
    console.log(
      `overrun: ${target} on ${node} (planned at a twentieth of its build), ${behind} queued behind it`,
    );

    // Cold runs: every target compiles in full, so the overrun lasts its whole build (seconds), far more than what
    // moving a target costs on real BuildKit (the new node pulls the target's inputs, which the planned node may
    // already hold). A warm run after a source change hits sccache, and its overrun was within that noise.
    const measure = async (dispatch: 'fixed' | 'guided') => {
      const runDir = await runHarness(`overrun-${dispatch}`, [
        'cold',
        '--plan',
        planPath,
        '--dispatch',
        dispatch,
      ]);
      const run = readRun(runDir);
      expect(run).toMatchObject({ dispatch, status: 'completed' });
      return { run, window: readRunWindow(running, run) };
    };
    const fixed = await measure('fixed');
    const guided = await measure('guided');
    const seconds = (window: { firstMs: number; lastMs: number }) => (window.lastMs - window.firstMs) / 1000;
    console.log(
      `registry-side makespan: fixed ${seconds(fixed.window).toFixed(2)} s, guided ${seconds(guided.window).toFixed(2)} s; ${behind} ran on ${fixed.run.targets[behind]?.node} (fixed), ${guided.run.targets[behind]?.node} (guided)`,
    );
    expect(fixed.run.targets[behind]?.node).toBe(node);
    expect(guided.run.targets[behind]?.node).not.toBe(node);
    // The moved target ran beside the overrun under guided dispatch and after it under fixed queues (the proxy's
    // record of when each image manifest was stored) ...
    const storedAt = (run: typeof fixed.run, name: string) => readImageManifestStoredMs(running, run, name)!;
    expect(storedAt(fixed.run, behind)).toBeGreaterThan(storedAt(fixed.run, target));
    expect(storedAt(guided.run, behind)).toBeLessThan(storedAt(guided.run, target));
    // ... and the run ended sooner. Two separate runs on a shared 2-core host: the margin (1.6 s, 0.55 s, 0.2 s
    // seen) is noise-bound, so only its sign is asserted; the manifest order above is the robust evidence.
    expect(seconds(guided.window)).toBeLessThan(seconds(fixed.window));

    // No target starts before its dependencies are in the registry: its node's first request in its window comes
    // after the dependency's image manifest was stored (both on the proxy's clock).
    for (const { run } of [fixed, guided]) {
      for (const [name, deps] of dependencies) {
        const outcome = run.targets[name];
        if (outcome?.status !== 'ok') continue;
        const first = readUploadTruth(running, run).get(name)?.requests[0];
        for (const dep of deps) {
          const stored = readImageManifestStoredMs(running, run, dep);
          const line = `${run.dispatch}: ${name} first request ${first?.firstByteMs}, start ${outcome.startedAtMs}; ${dep} manifest stored ${stored}`;
          expect(stored, line).toBeDefined();
          expect(outcome.startedAtMs, line).toBeGreaterThanOrEqual(stored!);
          expect(first!.firstByteMs, line).toBeGreaterThanOrEqual(stored!);
        }
      }
    }
  }, 600_000);
});
