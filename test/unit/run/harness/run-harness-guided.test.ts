import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFileSchema, type RunFile, RunFileSchema } from '../../../../src/artifacts/index.js';
import type { RunHarnessOptions } from '../../../../src/run/harness/run-harness.js';
import { UsageError } from '../../../../src/shared/errors.js';
import {
  startHarness,
  writeFleetFixture,
  type FakeWorldOptions,
  writeRealReport,
  writeSavedFleetPlan,
} from '../../../helpers/harness-fixture.js';

// `--dispatch guided` through the whole harness (fakes for buildx and the rest, the real report). The saved plan
// puts c-wheel behind pytorch on forge (twice anvil's speed), while anvil's head (a-wheel) waits for pytorch: at the
// start anvil is idle; pytorch would take 80 s there (past its planned 40 s), but c-wheel fits (40 s: not after
// a-wheel's projected start at 40 s, nor after c-wheel's own planned finish at 60 s).

let fixture: ReturnType<typeof writeFleetFixture>;
let planDir: string;
beforeEach(async () => {
  fixture = writeFleetFixture();
  planDir = await writeSavedFleetPlan(fixture.dir);
});
afterEach(() => fixture.remove());

function start(
  harness: RunHarnessOptions['harness'],
  world: Partial<FakeWorldOptions> = {},
  extra: Partial<Omit<RunHarnessOptions, 'effects'>> = {},
) {
  const options = { planPath: planDir, dispatch: 'guided' as const, ...extra };
  return startHarness({
    fixture,
    harness,
    world,
    options,
    effects: {
      writeReport: writeRealReport,
    },
  });
}

const readRun = (runDir: string): RunFile =>
  RunFileSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')));

describe('runHarness --dispatch guided', () => {
  it('runs a target off its planned node, records where it ran and the dispatch mode; the report shows both nodes', async () => {
    const { fake, promise } = start('warm', { durationMs: { pytorch: 150 } });
    const result = await promise;
    expect(result.exitCode).toBe(0);
    const run = readRun(result.runDir);
    expect(run).toMatchObject({ dispatch: 'guided', status: 'completed' });
    expect(
      Object.fromEntries(Object.entries(run.targets).map(([target, outcome]) => [target, outcome.node])),
    ).toEqual({ pytorch: 'forge', 'c-wheel': 'anvil', 'a-wheel': 'anvil', 'b-wheel': 'anvil' });
    const cWheel = fake.bakes.find((call) => call.options.target === 'c-wheel')!;
    expect(cWheel.options.builder).toBe('anvil-b');
    expect(cWheel.startedAtMs).toBeLessThan(
      fake.bakes.find((call) => call.options.target === 'pytorch')!.finishedAtMs,
    );
    const log = readFileSync(path.join(result.runDir, 'run.log'), 'utf8');
    expect(log).toMatch(/"target":"c-wheel","node":"anvil","plannedNode":"forge","reason":"fits"/);
    const data = DataFileSchema.parse(
      JSON.parse(readFileSync(path.join(result.runDir, 'data.json'), 'utf8')),
    );
    expect(data.summary.targets.find((entry) => entry.target === 'c-wheel')).toMatchObject({
      node: 'anvil',
      builder: 'anvil-b',
      plannedNode: 'forge',
    });
    expect(data.timeline.planned.find((entry) => entry.target === 'c-wheel')?.node).toBe('forge');
    expect(
      data.timeline.bands.filter((band) => band.target === 'c-wheel').every((band) => band.node === 'anvil'),
    ).toBe(true);
  });

  it('a failed target still skips its dependents while other work goes on (exit 1)', async () => {
    const { promise } = start('warm', { failing: { pytorch: 'ERROR: failed to solve: exit code: 2' } });
    const result = await promise;
    expect(result.exitCode).toBe(1);
    const run = readRun(result.runDir);
    expect(run.targets.pytorch).toMatchObject({ status: 'failed', node: 'forge' });
    expect(run.targets['a-wheel']).toEqual({
      status: 'skipped',
      node: 'anvil',
      reason: 'dependency pytorch failed',
    });
    expect(run.targets['b-wheel']).toMatchObject({ status: 'skipped', node: 'anvil' });
    expect(run.targets['c-wheel']).toMatchObject({ status: 'ok', node: 'anvil' });
  });

  it('SIGINT still cancels running builds and finalizes the run (exit 130)', async () => {
    const { controller, promise } = start('warm', {
      durationMs: { pytorch: 5_000, 'c-wheel': 5_000 },
      onBakeStart: (target) => target === 'pytorch' && setTimeout(() => controller.abort('SIGINT'), 50),
    });
    const result = await promise;
    expect(result.exitCode).toBe(130);
    const run = readRun(result.runDir);
    expect(run).toMatchObject({ status: 'interrupted', interruptedBy: 'SIGINT', dispatch: 'guided' });
    expect(run.targets.pytorch).toMatchObject({
      status: 'interrupted',
      error: expect.stringMatching(/^cancelled mid-build/) as unknown,
    });
    expect(run.targets['c-wheel']).toMatchObject({
      status: 'interrupted',
      node: 'anvil',
      error: expect.stringMatching(/^cancelled mid-build/) as unknown,
    });
    expect(run.targets['a-wheel']).toEqual({ status: 'skipped', node: 'anvil', reason: 'interrupted' });
    expect(run.finishedAtMs).not.toBeNull();
    for (const file of [
      'samples.jsonl',
      'sccache.log',
      'zot.jsonl',
      'artifacts.txt',
      'data.json',
      'report.md',
      'index.html',
    ]) {
      expect(readFileSync(path.join(result.runDir, file)).length, file).toBeGreaterThan(0);
    }
  });

  it('fixed dispatch keeps the saved queues and says so in run.json', async () => {
    const { promise } = start('warm', {}, { dispatch: 'fixed' });
    const run = readRun((await promise).runDir);
    expect(run.dispatch).toBe('fixed');
    expect(run.targets['c-wheel']?.node).toBe('forge');
  });

  it('bench refuses guided dispatch before anything starts', async () => {
    const { fake, promise } = start('bench');
    await expect(promise).rejects.toThrow(UsageError);
    await expect(promise).rejects.toThrow(/guided dispatch has nothing to move/);
    expect(fake.bakes).toEqual([]);
  });
});
