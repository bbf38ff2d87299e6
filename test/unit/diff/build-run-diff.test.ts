import { describe, expect, it } from 'vitest';
import { buildRunDiff, renderRunDiffMd } from '../../../src/diff/index.js';
import { toDelta } from '../../../src/diff/to-delta.js';
import { type RunDrag } from '../../../src/diff/build-run-drag.js';
import { UsageError, type RocmPerfError } from '../../../src/shared/errors.js';
import { makeModel, type ModelSpec } from './make-model.js';

// The hand-built models carry no run.json or plan.json, so no diff of them splits the makespan change by cause.
const NO_SPLIT =
  'no split of the makespan change by cause: run A has no run.json, run A has no plan.json, run B has no run.json, run B has no plan.json (the replays need the queues, waits and times of both)';

const runA: ModelSpec = {
  stamp: '20260301T000000Z',
  targets: [
    {
      target: 'pytorch',
      node: 'forge',
      startS: 0,
      endS: 600,
      buildS: 500,
      uploadS: 60,
      bytes: 4_000_000_000,
    },
    {
      target: 'triton-wheel',
      node: 'forge',
      startS: 600,
      endS: 900,
      buildS: 200,
      uploadS: 30,
      bytes: 500_000_000,
    },
    { target: 'aiter-wheel', node: 'strix', startS: 600, endS: 800, buildS: 100, uploadS: 20, bytes: 0 },
    { target: 'old-wheel', node: 'strix', startS: 800, endS: 850 },
  ],
  criticalPath: ['pytorch', 'triton-wheel'],
};

const runB: ModelSpec = {
  stamp: '20260302T000000Z',
  targets: [
    {
      target: 'pytorch',
      node: 'forge',
      startS: 0,
      endS: 660,
      buildS: 560,
      uploadS: 60,
      bytes: 3_000_000_000,
    },
    {
      target: 'triton-wheel',
      node: 'forge',
      startS: 660,
      endS: 900,
      buildS: 150,
      uploadS: 30,
      bytes: 500_000_000,
    },
    { target: 'aiter-wheel', node: 'anvil', startS: 660, endS: 1000, buildS: 250, uploadS: 20, bytes: 100 },
    { target: 'new-wheel', node: 'strix', startS: 660, endS: 700 },
  ],
  criticalPath: ['pytorch', 'aiter-wheel'],
};

describe('toDelta', () => {
  it.each([
    [100, 130, { a: 100, b: 130, delta: 30, pct: 30 }],
    [0, 5, { a: 0, b: 5, delta: 5, pct: null }],
    [null, 5, { a: null, b: 5, delta: null, pct: null }],
    [200, 150, { a: 200, b: 150, delta: -50, pct: -25 }],
  ] as const)('%s → %s', (a, b, expected) => {
    expect(toDelta(a, b)).toEqual(expected);
  });
});

describe('buildRunDiff', () => {
  it('gives per-target deltas (B − A), node moves, targets in one run only, makespan and path change', () => {
    const diff = buildRunDiff({ a: { model: makeModel(runA) }, b: { model: makeModel(runB) } });
    expect(diff.crossHarness).toBe(false);
    expect(diff.makespanSeconds).toEqual({ a: 900, b: 1000, delta: 100, pct: 11.1 });
    expect(diff.targets.map((t) => t.target)).toEqual([
      'aiter-wheel',
      'pytorch',
      'triton-wheel',
      'old-wheel',
      'new-wheel',
    ]);
    const aiter = diff.targets[0]!;
    expect(aiter.node).toEqual({ a: 'strix', b: 'anvil', moved: true });
    expect(aiter.buildSeconds).toEqual({ a: 100, b: 250, delta: 150, pct: 150 });
    expect(aiter.totalSeconds).toEqual({ a: 200, b: 340, delta: 140, pct: 70 });
    expect(aiter.uploadBytes).toEqual({ a: 0, b: 100, delta: 100, pct: null });
    expect(aiter.onCriticalPath).toEqual({ a: false, b: true });
    const pytorch = diff.targets[1]!;
    expect(pytorch.node.moved).toBe(false);
    expect(pytorch.uploadBytes).toEqual({
      a: 4_000_000_000,
      b: 3_000_000_000,
      delta: -1_000_000_000,
      pct: -25,
    });
    expect(pytorch.uploadSeconds).toEqual({ a: 60, b: 60, delta: 0, pct: 0 });
    expect(diff.onlyInA).toEqual(['old-wheel']);
    expect(diff.onlyInB).toEqual(['new-wheel']);
    expect(diff.targets[3]!.buildSeconds).toEqual({ a: 25, b: null, delta: null, pct: null });
    expect(diff.criticalPath).toMatchObject({
      source: 'data.json',
      a: ['pytorch', 'triton-wheel'],
      b: ['pytorch', 'aiter-wheel'],
      same: false,
      joined: ['aiter-wheel'],
      left: ['triton-wheel'],
    });
    expect(diff.explanation).toBeNull();
    expect(diff.notes).toEqual([NO_SPLIT]);
  });

  it.each([
    ['cold', 'warm'],
    ['warm', 'bench'],
    ['bench', 'cold'],
    ['warm', 'unknown'],
  ] as const)('refuses a %s run against a %s run, naming both and --force', (harnessA, harnessB) => {
    const attempt = () =>
      buildRunDiff({
        a: { model: makeModel({ ...runA, harness: harnessA }) },
        b: { model: makeModel({ ...runB, harness: harnessB }) },
      });
    expect(attempt).toThrow(UsageError);
    try {
      attempt();
    } catch (error) {
      const e = error as RocmPerfError;
      expect(e.code).toBe('ROCMPERF_USAGE');
      expect(e.exitCode).toBe(2);
      expect(e.message).toContain(`is a ${harnessA} run`);
      expect(e.message).toContain(`is a ${harnessB} run`);
      expect(e.message).toContain('must not be quoted as if it came from another');
      expect(e.hint).toContain('--force');
    }
  });

  it('refuses runs of different lanes unless forced, saying why, and labels a forced diff cross-lane', () => {
    const a = { model: makeModel({ stamp: 'A', targets: [] }) };
    const b = { model: makeModel({ stamp: 'B', lane: 'nightly-aws', targets: [] }) };
    expect(() => buildRunDiff({ a, b })).toThrow(
      'RUN_A A was recorded in lane fleet and RUN_B B in lane nightly-aws: runs recorded on different fleets or setups are not comparable figure by figure',
    );
    const forced = buildRunDiff({ a, b, force: true });
    expect(forced.crossLane).toBe(true);
    expect(renderRunDiffMd(forced).split('\n')[0]).toBe(
      '# Run diff (warm harness, CROSS-LANE: fleet vs nightly-aws, forced)',
    );
  });

  it('compares different harnesses with force, and labels the diff cross-harness', () => {
    const diff = buildRunDiff({
      a: { model: makeModel({ ...runA, harness: 'cold' }) },
      b: { model: makeModel(runB) },
      force: true,
    });
    expect(diff.crossHarness).toBe(true);
    expect(diff.notes[1]).toContain('cross-harness comparison forced: A is cold, B is warm');
    expect(renderRunDiffMd(diff).split('\n')[0]).toBe(
      '# Run diff (CROSS-HARNESS: cold vs warm, forced, lane fleet)',
    );
  });

  it('allows two runs of unknown harness but says the harness could not be checked', () => {
    const diff = buildRunDiff({
      a: { model: makeModel({ ...runA, harness: 'unknown' }) },
      b: { model: makeModel({ ...runB, harness: 'unknown' }) },
    });
    expect(diff.notes).toEqual([
      NO_SPLIT,
      'neither run has a run.json, so their harnesses are unknown: check they come from the same harness before quoting a delta',
    ]);
  });

  it('notes a run that is still running and the loaders’ notes', () => {
    const diff = buildRunDiff({
      a: { model: makeModel(runA), notes: ['data.json was stale'] },
      b: { model: makeModel({ ...runB, status: 'running' }) },
    });
    expect(diff.notes).toEqual([
      NO_SPLIT,
      'run B (20260302T000000Z) is still running: its figures are partial',
      'A: data.json was stale',
    ]);
  });

  it('uses the drag analysis for the path when both runs have one', () => {
    const entry = (
      target: string,
      node: string,
      startSeconds: number,
      finishSeconds: number,
      dragSeconds: number,
    ) => ({
      target,
      node,
      startSeconds,
      finishSeconds,
      durationSeconds: finishSeconds - startSeconds,
      via: 'dependency' as const,
      launchDelaySeconds: 0,
      dragSeconds,
    });
    const dragA: RunDrag = {
      makespanSeconds: 900,
      path: [entry('pytorch', 'forge', 0, 600, 600), entry('triton-wheel', 'forge', 600, 900, 100)],
    };
    const dragB: RunDrag = {
      makespanSeconds: 1000,
      path: [entry('pytorch', 'forge', 0, 660, 660), entry('aiter-wheel', 'anvil', 660, 1000, 100)],
    };
    const diff = buildRunDiff({
      a: { model: makeModel(runA), drag: dragA },
      b: { model: makeModel(runB), drag: dragB },
    });
    expect(diff.criticalPath.source).toBe('drag');
    expect(diff.criticalPath.seconds).toEqual({ a: 900, b: 1000, delta: 100, pct: 11.1 });
    expect(diff.criticalPath.entries).toEqual([
      { target: 'pytorch', dragSeconds: { a: 600, b: 660 } },
      { target: 'triton-wheel', dragSeconds: { a: 100, b: null } },
      { target: 'aiter-wheel', dragSeconds: { a: null, b: 100 } },
    ]);
    const md = renderRunDiffMd(diff);
    expect(md).toContain('## Critical path (with drag, from run.json + plan.json)');
    expect(md).toContain('| pytorch | 10m00s | 11m00s |');
  });

  it('falls back to data.json’s paths when only one run has a drag analysis', () => {
    const dragA: RunDrag = { makespanSeconds: 900, path: [] };
    const diff = buildRunDiff({ a: { model: makeModel(runA), drag: dragA }, b: { model: makeModel(runB) } });
    expect(diff.criticalPath.source).toBe('data.json');
  });
});

describe('renderRunDiffMd', () => {
  const md = renderRunDiffMd(buildRunDiff({ a: { model: makeModel(runA) }, b: { model: makeModel(runB) } }));

  it('names both runs, the harness and the makespan change', () => {
    const lines = md.split('\n');
    expect(lines[0]).toBe('# Run diff (warm harness, lane fleet)');
    expect(lines).toContain('- **A** `20260301T000000Z` — warm harness, namespace `rocm`, completed');
    expect(lines).toContain('**Makespan:** 15m00s → 16m40s (+1m40s (+11%))');
  });

  it('has a row per target in both runs, worst Δtotal first, moved nodes in bold', () => {
    const rows = md.split('\n').filter((l) => /^\| (aiter|pytorch|triton)/.test(l));
    expect(rows[0]).toBe(
      '| aiter-wheel | **strix → anvil** | ok | 1m40s → 4m10s | +2m30s (+150%) | +2m20s (+70%) | ±0 | +100 B | B |',
    );
    expect(rows[1]).toBe(
      '| pytorch | forge | ok | 8m20s → 9m20s | +1m00s (+12%) | +1m00s (+10%) | ±0 | -1.00 GB (-25%) | AB |',
    );
    expect(rows[2]).toBe(
      '| triton-wheel | forge | ok | 3m20s → 2m30s | -50.00s (-25%) | -1m00s (-20%) | ±0 | ±0 | A |',
    );
  });

  it('lists targets found in one run only', () => {
    expect(md).toContain('## Targets in one run only');
    expect(md).toContain('| old-wheel | A | strix | ok | 25.00s | 50.00s | 0 B |');
    expect(md).toContain('| new-wheel | B | strix | ok | 20.00s | 40.00s | 0 B |');
    expect(md).toContain('- Joined the path in B: `aiter-wheel`; left it: `triton-wheel`.');
  });
});
