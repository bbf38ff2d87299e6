import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  listRunDirs,
  readData,
  readDependencies,
  readLines,
  readRun,
  readSccacheTruth,
  readStoredBytes,
  runDirOf,
  spawnCli,
  useHarnessBox,
} from './harness-helpers.js';
import type { RunFile } from '../../src/artifacts/index.js';

// Dropped links during a run (issue 16 item 4), on the fleet in a box: the log host's sshd going down with its
// connections, a node_exporter stopped for 30 s, a builder vanishing mid-target, the registry refusing connections
// for 20 s. The run goes on where it can; what is missing is said with its cause; a failed target skips only what
// depends on it; and what was collected equals the truth the servers kept.

const { box } = useHarnessBox({ fleet: {}, rootName: 'harness-links', sampleIntervalMs: 500 });

type Targets = RunFile['targets'];

function readLiveRun(
  root: string,
): { dir: string; run: { measuredStartedAtMs: number | null; targets: Targets } } | undefined {
  for (const name of listRunDirs(root)) {
    const file = path.join(root, name, 'run.json');
    if (!existsSync(file)) continue;
    try {
      return { dir: path.join(root, name), run: JSON.parse(readFileSync(file, 'utf8')) as never };
    } catch {
      return undefined; // being replaced right now
    }
  }
  return undefined;
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = probe();
    if (found !== undefined) return found;
    await delay(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Every target not run is skipped for a failed dependency, and every target whose dependencies all succeeded ran. */
function expectFailuresSkipOnlyDependents(run: RunFile, deps: Map<string, string[]>): void {
  for (const [target, outcome] of Object.entries(run.targets)) {
    const mine = deps.get(target) ?? [];
    const allOk = mine.every((dep) => run.targets[dep]?.status === 'ok');
    if (outcome.status === 'skipped') {
      expect(allOk, `${target} was skipped although its dependencies succeeded: ${outcome.reason}`).toBe(
        false,
      );
      expect(outcome.reason, target).toMatch(/^dependency .+ (failed|was skipped)/);
    } else expect(allOk, `${target} ran before its dependencies succeeded`).toBe(true);
  }
}

describe('dropped links mid-run', () => {
  it('sshd restarted, a node_exporter down 30 s, a builder vanishing: the run goes on and says what is missing', async () => {
    const { fleet, root: base } = box();
    const root = path.join(base, 'links-a');
    const child = spawnCli(fleet, ['warm', '--root', root, '--sample-interval-ms', '500']);
    const live = await waitFor('the measured run', () => {
      const found = readLiveRun(root);
      return found?.run.measuredStartedAtMs != null ? found : undefined;
    });
    // Mid-run: the capture has started both logs (its run-dir copies exist) before sshd goes down. A log host down
    // at the start is another case (waited for before any target is dispatched; test/unit/run/cache-logs/capture-logs.test.ts).
    await waitFor('the log capture', () =>
      ['sccache.log', 'zot.jsonl'].every((file) => existsSync(path.join(live.dir, file))) ? true : undefined,
    );
    const exporterDown = { fromMs: Date.now(), toMs: 0 };
    const exporterOutage = fleet.faults
      .stopNodeExporter('kiln', 30_000)
      .then(() => (exporterDown.toMs = Date.now()));
    await delay(2_000);
    await fleet.faults.restartServicesSshd(3_000);
    // A builder vanishing mid-target: once a target runs on kiln and the double's bake worker for it exists (one
    // per target; under load it takes a while to start), kill the worker. The victims: kiln's running targets.
    const kilnRunning = () =>
      Object.entries(readLiveRun(root)?.run.targets ?? {})
        .filter(([, t]) => t.node === 'kiln' && t.status === 'running')
        .map(([target]) => target);
    await waitFor('a target running on kiln', () => (kilnRunning().length > 0 ? true : undefined));
    const candidates = new Set<string>();
    await waitFor(
      'a bake worker on kiln to kill',
      () => {
        const running = kilnRunning();
        if (running.length === 0) return undefined;
        for (const target of running) candidates.add(target);
        return fleet.faults.killBuilder('kiln') > 0 ? true : undefined;
      },
      30_000,
    );
    const result = await child;
    await exporterOutage;
    const runDir = runDirOf(String(result.stdout));
    expect(runDir).toBe(live.dir);
    const run = readRun(runDir);
    const data = readData(runDir);
    expect(result.exitCode, String(result.stderr).slice(-2000)).toBe(1);

    // The vanished builder's target failed with the reason; only its dependents were skipped.
    const victims = [...candidates].filter((target) => run.targets[target]?.status === 'failed');
    expect(
      victims.length,
      `kiln's targets running at the kill: ${[...candidates].join(', ')}`,
    ).toBeGreaterThan(0);
    expectFailuresSkipOnlyDependents(run, readDependencies(fleet));
    expect(Object.values(run.targets).filter((t) => t.status === 'ok').length).toBeGreaterThan(0);

    // node_exporter: a gap with its cause while it was down, samples again after.
    const kiln = readLines(path.join(runDir, 'samples.jsonl')).filter((s) => s.node === 'kiln');
    const failed = kiln.filter((s) => s.ok === false);
    expect(failed.length).toBeGreaterThan(20);
    for (const sample of failed) {
      expect(sample.tsMs as number).toBeGreaterThanOrEqual(exporterDown.fromMs - 1000);
      expect(sample.tsMs as number).toBeLessThanOrEqual(exporterDown.toMs + 1000);
    }
    expect(kiln.some((s) => s.ok === true && (s.tsMs as number) > exporterDown.toMs)).toBe(true);
    const notes = data.summary.warnings.map((w) => w.message);
    expect(
      notes.some((m) => /^kiln: no samples .* failed scrapes\): .*(ECONNREFUSED|refused)/.test(m)),
      notes.join('\n'),
    ).toBe(true);

    // The log host's sshd: the capture noticed, reconnected, and the slices lost nothing (nginx's log and the proxy's
    // record agree).
    for (const slice of run.logs ?? []) expect(slice.warning, slice.file).toBeUndefined();
    expect(
      run.warnings.some((w) =>
        /^log host .* was unreachable .* reconnected, and the final slice covers the outage$/.test(w),
      ),
      run.warnings.join('\n'),
    ).toBe(true);
    const sccache = readSccacheTruth(fleet, run);
    for (const [node, counts] of Object.entries(sccache))
      expect(data.summary.sccache.perNode[node], node).toMatchObject(counts);
    const stored = readStoredBytes(fleet, run);
    expect(data.summary.registry.cache.bytesWritten).toBe(stored.cache);
    expect(data.summary.registry.image.bytesWritten).toBe(stored.image);
  }, 400_000);

  it('the registry refusing connections for 20 s: targets pushing then fail with the reason, the rest go on', async () => {
    const { fleet, root: base } = box();
    fleet.bumpRevisions();
    const root = path.join(base, 'links-b');
    const child = spawnCli(fleet, ['warm', '--root', root, '--sample-interval-ms', '500']);
    // When the first target is done and the next wave starts, the registry goes away for 20 s.
    await waitFor('a finished target', () => {
      const targets = readLiveRun(root)?.run.targets ?? {};
      return Object.values(targets).some((t) => t.status === 'ok') ? true : undefined;
    });
    const refusedFromMs = Date.now();
    await fleet.faults.refuseRegistry(20_000);
    const refusedToMs = Date.now();
    const result = await child;
    const runDir = runDirOf(String(result.stdout));
    const run = readRun(runDir);
    const data = readData(runDir);
    expect(result.exitCode, String(result.stderr).slice(-2000)).toBe(1);
    const failed = Object.entries(run.targets).filter(([, t]) => t.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const [target, outcome] of failed) {
      if (outcome.status !== 'failed') continue;
      // Refused when it connected during the outage; hung up or reset when its push was in flight as it began.
      expect(outcome.error, target).toMatch(/refused|ECONNREFUSED|connect|socket hang up|ECONNRESET/i);
      expect(outcome.startedAtMs, target).toBeLessThanOrEqual(refusedToMs);
      expect(outcome.finishedAtMs, target).toBeGreaterThanOrEqual(refusedFromMs);
    }
    expectFailuresSkipOnlyDependents(run, readDependencies(fleet));
    const stored = readStoredBytes(fleet, run);
    expect(data.summary.registry.cache.bytesWritten).toBe(stored.cache);
    expect(data.summary.registry.image.bytesWritten).toBe(stored.image);
    const report = readFileSync(path.join(runDir, 'report.md'), 'utf8');
    for (const [target] of failed) expect(report).toContain(target);
  }, 400_000);
});
