import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReportModel, loadRunModel, readRunInputs, serialiseModel } from '../../../src/report/index.js';
import { FIXTURE_RUNS_DIR } from '../../../scripts/make-fixture-run.js';

// loadRunModel trusts a stored data.json only when it still describes the run: a data.json made before the run
// was imported into another lane says the old lane, and is rebuilt.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function copyFixtureRun(): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'load-run-model-')), '20260314T092000Z-warm');
  dirs.push(path.dirname(dir));
  cpSync(path.join(FIXTURE_RUNS_DIR, '20260314T092000Z-warm'), dir, { recursive: true });
  return dir;
}

describe('loadRunModel', () => {
  it('uses the stored data.json while its lane is the run’s', async () => {
    const dir = copyFixtureRun();
    const model = buildReportModel(await readRunInputs({ dir, generatedAtMs: 0 }));
    writeFileSync(path.join(dir, 'data.json'), serialiseModel(model));
    const loaded = await loadRunModel({ dir, nowMs: 0 });
    expect(loaded).toMatchObject({ source: 'data.json', notes: [] });
    expect(loaded.model.run.lane).toBe('fleet');
  });

  it('rebuilds a data.json made in another lane, and says why', async () => {
    const dir = copyFixtureRun();
    const model = buildReportModel(await readRunInputs({ dir, generatedAtMs: 0 }));
    writeFileSync(path.join(dir, 'data.json'), serialiseModel(model));
    writeFileSync(path.join(dir, 'lane.txt'), 'nightly-aws\n');
    const loaded = await loadRunModel({ dir, nowMs: 0 });
    expect(loaded.source).toBe('run files');
    expect(loaded.model.run.lane).toBe('nightly-aws');
    expect(loaded.notes).toEqual([
      `${path.join(dir, 'data.json')} was made in lane fleet, but the run is lane nightly-aws (lane.txt); rebuilt from the run files`,
    ]);
  });
});
