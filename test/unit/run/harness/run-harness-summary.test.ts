import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFileSchema } from '../../../../src/artifacts/index.js';
import { buildHarnessSummary } from '../../../../src/commands/harness-summary.js';
import { runHarness, type HarnessResult } from '../../../../src/run/harness/run-harness.js';
import { renderSummaryText } from '../../../../src/summary/index.js';
import { expectSummaryMatchesData } from '../../../helpers/check-run-summary.js';
import {
  createFakeWorld,
  writeFleetFixture,
  type FakeWorldOptions,
  writeRealReport,
  writeSavedFleetPlan,
} from '../../../helpers/harness-fixture.js';

// The harness hands the command what its end-of-run summary needs (docs/summary.md): once the run is finalized,
// onFinalized gets run.json and the very model the report wrote as data.json, also for a failed run and for one an
// error stopped (the error is rethrown after). Fakes for buildx and the rest, the real report.

let fixture: ReturnType<typeof writeFleetFixture>;
let planDir: string;
beforeEach(async () => {
  fixture = writeFleetFixture();
  // The saved plan of the guided-dispatch test (the fake fleet's targets), run as fixed.
  planDir = await writeSavedFleetPlan(fixture.dir);
});
afterEach(() => fixture.remove());

function start(
  world: Partial<FakeWorldOptions> = {},
  tweak: (effects: ReturnType<typeof createFakeWorld>['effects']) => void = () => undefined,
) {
  const fake = createFakeWorld({
    sccacheLog: fixture.sccacheLog,
    registryLog: fixture.registryLog,
    ...world,
  });
  fake.effects.writeReport = writeRealReport;
  tweak(fake.effects);
  const finalized: HarnessResult[] = [];
  const root = path.join(fixture.dir, 'runs');
  const promise = runHarness({
    harness: 'warm',
    fleetPath: fixture.fleetPath,
    flags: {},
    root,
    planPath: planDir,
    dispatch: 'fixed',
    env: {},
    sshAgent: undefined,
    dockerConfigDir: '/nonexistent/.docker',
    logLevel: 'warn',
    coldNamespaceSuffix: '',
    signal: new AbortController().signal,
    sampleIntervalMs: 10,
    logPollIntervalMs: 10,
    effects: fake.effects,
    onFinalized: (result) => void finalized.push(result),
  });
  return { promise, finalized, root };
}

const readDataJson = (runDir: string) =>
  DataFileSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'data.json'), 'utf8')));

describe('runHarness → onFinalized, for the end-of-run summary', () => {
  it('a completed run: once, with the model the report wrote; its summary says what data.json says', async () => {
    const { promise, finalized, root } = start({ durationMs: { pytorch: 120 } });
    const result = await promise;
    expect(finalized).toHaveLength(1);
    expect(finalized[0]).toBe(result);
    const data = readDataJson(result.runDir);
    expect(result.model).toEqual(data);
    const summary = buildHarnessSummary(result, {}, root);
    expectSummaryMatchesData(renderSummaryText(summary), data, {
      runDir: result.runDir,
      exitCode: 0,
      serveUrl: `http://0.0.0.0:8090/runs/${path.basename(result.runDir)}/`,
    });
  });

  it('a failed target: the summary says failed, exit 1, and names what did not finish', async () => {
    const { promise, root } = start({ failing: { pytorch: 'ERROR: failed to solve: exit code: 2' } });
    const result = await promise;
    const text = renderSummaryText(buildHarnessSummary(result, {}, root));
    expect(text).toMatch(/^── rocm-perf warm \S+: failed \(exit 1\), 1 of 4 targets ok$/m);
    expect(text).toMatch(/^not ok\s+a-wheel skipped, b-wheel skipped, pytorch failed$/m);
  });

  it('an error that stops the run: finalized and summarised first, then rethrown', async () => {
    const { promise, finalized } = start({}, (effects) => {
      effects.readBuilderIdentities = () => Promise.reject(new Error('builder inspect exploded'));
    });
    await expect(promise).rejects.toThrow('builder inspect exploded');
    expect(finalized).toHaveLength(1);
    expect(finalized[0]!.run.status).toBe('failed');
    expect(finalized[0]!.model?.run.status).toBe('failed');
  });
});
