import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReportModel } from '../../../src/report/build-model.js';
import { findRunDir, loadRunModel } from '../../../src/report/index.js';
import { readRunInputs } from '../../../src/run-dir/index.js';
import { serialiseModel } from '../../../src/report/write-report.js';
import { RocmPerfError } from '../../../src/shared/errors.js';
import { FIXTURE_RUNS_DIR } from '../../../scripts/make-fixture-run.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

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
    const model = buildReportModel(await readRunInputs({ runDir: openRunDir(dir), generatedAtMs: 0 }));
    writeFileSync(path.join(dir, 'data.json'), serialiseModel(model));
    const loaded = await loadRunModel({ runDir: openRunDir(dir), nowMs: 0 });
    expect(loaded).toMatchObject({ source: 'data.json', notes: [] });
    expect(loaded.model.run.lane).toBe('fleet');
  });

  it('rebuilds a data.json made in another lane, and says why', async () => {
    const dir = copyFixtureRun();
    const model = buildReportModel(await readRunInputs({ runDir: openRunDir(dir), generatedAtMs: 0 }));
    writeFileSync(path.join(dir, 'data.json'), serialiseModel(model));
    writeFileSync(path.join(dir, 'lane.txt'), 'nightly-aws\n');
    const loaded = await loadRunModel({ runDir: openRunDir(dir), nowMs: 0 });
    expect(loaded.source).toBe('run files');
    expect(loaded.model.run.lane).toBe('nightly-aws');
    expect(loaded.notes).toEqual([
      `${path.join(dir, 'data.json')} was made in lane fleet, but the run is lane nightly-aws (lane.txt); rebuilt from the run files`,
    ]);
  });

  it('rebuilds a data.json whose run files changed after it was made (a trace damaged since `report`)', async () => {
    const dir = copyFixtureRun();
    const model = buildReportModel(await readRunInputs({ runDir: openRunDir(dir), generatedAtMs: 0 }));
    writeFileSync(path.join(dir, 'data.json'), serialiseModel(model));
    const trace = path.join(dir, 'trace-pytorch.json');
    const size = readFileSync(trace).length;
    writeFileSync(trace, 'not a trace\n');
    const loaded = await loadRunModel({ runDir: openRunDir(dir), nowMs: 0 });
    expect(loaded.source).toBe('run files');
    expect(loaded.notes).toEqual([
      `${path.join(dir, 'data.json')} was made when trace-pytorch.json was ${size} bytes; it is 12 bytes now; rebuilt from the run files`,
    ]);
    expect(loaded.model.summary.partial).toEqual(['trace-pytorch.json']);
  });
});

describe('findRunDir', () => {
  it.each([
    ['an empty dir', [], 'it is empty'],
    ['a dir of other files', ['notes.txt', 'samples.jsonl'], 'it holds 2 file(s) (notes.txt, samples.jsonl)'],
    ['a lone stray trace', ['trace-pytorch.json'], 'it holds 1 file(s) (trace-pytorch.json)'],
    ['two stray traces', ['trace-a.json', 'trace-b.json'], 'it holds 2 file(s) (trace-a.json, trace-b.json)'],
  ])('refuses %s: not a run', async (_, files, holds) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'not-a-run-'));
    dirs.push(dir);
    for (const name of files) writeFileSync(path.join(dir, name), 'x\n');
    const refusal = await findRunDir({ run: dir, root: tmpdir() }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RocmPerfError);
    expect(refusal).toMatchObject({ code: 'ROCMPERF_NOT_A_RUN', exitCode: 2 });
    expect((refusal as Error).message).toBe(
      `${dir}: not a run dir: no run.json, no lane.txt, and no trace-<target>.json beside another file of a run; ${holds}. Nothing was read or written`,
    );
  });

  it.each([
    [['run.json']],
    [['lane.txt']],
    [['trace-pytorch.json', 'samples.jsonl']],
    [['trace-pytorch.json', 'status-pytorch.jsonl']],
    [['trace-pytorch.json', 'zot.jsonl']],
    [['trace-pytorch.json', 'plan.json']],
  ])('takes a dir holding %j', async (names) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'a-run-'));
    dirs.push(dir);
    mkdirSync(path.join(dir, 'sub'));
    for (const name of names) writeFileSync(path.join(dir, name), '{}\n');
    expect(await findRunDir({ run: dir, root: tmpdir() })).toBe(dir);
  });
});
