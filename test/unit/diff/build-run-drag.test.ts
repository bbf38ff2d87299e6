import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunDrag } from '../../../src/diff/index.js';
import { loadRunModel } from '../../../src/report/index.js';
import { FIXTURE_RUNS_DIR } from '../../../scripts/make-fixture-run.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// The drag analysis diff shows, from the committed warm fixture run's run.json and plan.json.

const loaded = await loadRunModel({
  runDir: openRunDir(path.join(FIXTURE_RUNS_DIR, '20260314T092000Z-warm')),
  nowMs: 0,
});

describe('buildRunDrag', () => {
  it('walks back from the last target to finish, with a drag for each entry', () => {
    const { drag, notes } = buildRunDrag({ runFile: loaded.runFile, plan: loaded.plan });
    expect(notes).toEqual([]);
    const path = drag!.path;
    expect(path.map((e) => e.target)).toEqual(['pytorch', 'aiter-wheel', 'xformers-wheel']);
    const lastFinish = Math.max(
      ...Object.values(loaded.runFile!.targets).flatMap((t) => ('finishedAtMs' in t ? [t.finishedAtMs] : [])),
    );
    expect(path[path.length - 1]!.finishSeconds).toBeCloseTo(
      (lastFinish - loaded.runFile!.measuredStartedAtMs!) / 1000,
      3,
    );
    for (const entry of path) expect(entry.dragSeconds).toBeGreaterThanOrEqual(0);
    expect(path[0]!.dragSeconds).toBeGreaterThan(0);
  });

  it('has no drag without plan.json (dependencies unknown)', () => {
    expect(buildRunDrag({ runFile: loaded.runFile, plan: undefined })).toEqual({ notes: [] });
  });

  it('turns an inconsistent schedule into a note', () => {
    const plan = structuredClone(loaded.plan!);
    plan.targets.pytorch!.waitFor = ['xformers-wheel'];
    const { drag, notes } = buildRunDrag({ runFile: loaded.runFile, plan });
    expect(drag).toBeUndefined();
    expect(notes).toEqual([
      expect.stringMatching(
        /^no drag analysis: cannot analyse the schedule: queue order and dependencies form a cycle among /,
      ),
    ]);
  });
});
