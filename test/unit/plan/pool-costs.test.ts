import { describe, expect, it } from 'vitest';
import type { TargetTrace, TraceUpload } from '../../../src/collect/types.js';
import type { RunFile } from '../../../src/artifacts/index.js';
import { createRunFile, createTrace, createUpload } from './cost-run-fixture.js';
import { findPoolingRefusals } from '../../../src/plan/index.js';
import { estimateLogSigma, poolFigure } from '../../../src/plan/pool-costs.js';
import { deriveTargetCosts } from '../../../src/plan/derive-target-costs.js';
import { refuseUnpoolableRuns, type CostRun } from '../../../src/costs/read-cost-runs.js';
import { parseTargetCosts, renderTargetCosts } from '../../../src/config/parse-target-costs.js';

// Costs as distributions: figures from several runs pooled into a median and a robust sigma of ln(figure).

/** The test's own estimator, written from the docs (docs/planning.md, "Costs as distributions"), not the code's. */
function referenceSigma(values: number[]): number {
  const logs = values.map((v) => Math.log(v));
  if (logs.length === 1) return 0;
  if (logs.length === 2) return Math.abs(logs[0]! - logs[1]!) / Math.sqrt(2);
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const factor = { 3: 1.495, 4: 1.363, 5: 1.206 }[logs.length] ?? 1;
  const m = median(logs);
  return factor * 1.4826 * median(logs.map((x) => Math.abs(x - m)));
}

const upload = (bytes: number | null) => createUpload(bytes);
const trace = (target: string, buildSeconds: number, uploads: TraceUpload[] = []): TargetTrace =>
  createTrace(target, { buildSeconds, uploads });
const runFile = (stamp: string, over: Partial<RunFile> = {}): RunFile => createRunFile({ stamp, ...over });

const costRun = (run: RunFile, traces: TargetTrace[], lane = 'fleet'): CostRun => ({
  dir: `/runs/${run.stamp}`,
  lane,
  run,
  traces: new Map(traces.map((t) => [t.target, t])),
});

describe('estimateLogSigma', () => {
  it.each([[[100]], [[100, 130]], [[100, 130, 90]], [[100, 130, 90, 300]], [[5, 5, 5, 6, 9]]])(
    '%j: the documented estimator',
    (values) => {
      expect(estimateLogSigma(values)).toBeCloseTo(referenceSigma(values), 12);
    },
  );

  it('one run: sigma 0; two: their standard deviation of ln', () => {
    expect(poolFigure([42])).toEqual({ median: 42, sigma: 0, runs: 1 });
    const two = poolFigure([100, 200]);
    expect(two).toMatchObject({ median: 150, runs: 2 });
    expect(two.sigma).toBeCloseTo(Math.log(2) / Math.SQRT2, 12);
  });

  it('one wild run in three moves neither the median nor the sigma much (robust)', () => {
    const calm = poolFigure([100, 104, 98]);
    const wild = poolFigure([100, 104, 1000]);
    expect(wild.median).toBe(104);
    expect(wild.sigma).toBeCloseTo(1.495 * 1.4826 * Math.log(104 / 100), 12);
    expect(calm.sigma).toBeCloseTo(1.495 * 1.4826 * Math.log(100 / 98), 12);
  });
});

describe('deriveTargetCosts over three runs', () => {
  // Target a: 100 s, 130 s, 90 s of steps on the speed-2 node (200, 260, 180 s at reference speed); bytes 1000,
  // 1100, 900. Target b: only in the second run, uploads without a size there.
  const runs = [
    costRun(runFile('r1'), [trace('a', 100, [upload(600), upload(400)])]),
    costRun(
      runFile('r2', {
        targets: {
          a: { status: 'ok', node: 'fast', startedAtMs: 0, finishedAtMs: 1 },
          b: { status: 'ok', node: 'slow', startedAtMs: 0, finishedAtMs: 1 },
        },
      }),
      [trace('a', 130, [upload(1100)]), trace('b', 10, [upload(null)])],
    ),
    costRun(runFile('r3'), [trace('a', 90, [upload(900)])]),
  ];
  const current = parseTargetCosts('build a 50\nbuild b 60\ncache b 77\ncache-spread b 0.2 4\n', 'c').costs;
  const derived = deriveTargetCosts({ runs, current });

  it('writes the median and the sigma an independent computation gives, with the count of runs', () => {
    expect(derived.costs.get('a')).toEqual({
      buildSeconds: 50,
      warmBuildSeconds: 200,
      cacheBytes: 1000,
      warmSetupSeconds: 0,
    });
    expect(derived.spreads.get('a')).toEqual({
      warmBuildSpread: { sigma: referenceSigma([200, 260, 180]), runs: 3 },
      cacheSpread: { sigma: referenceSigma([1000, 1100, 900]), runs: 3 },
      warmSetupSpread: { sigma: 0, runs: 3 },
    });
    expect(derived.spreads.get('a')?.warmBuildSpread?.sigma).toBeCloseTo(
      1.495 * 1.4826 * Math.log(200 / 180),
      12,
    );
  });

  it('applies each rule per run, and keeps a figure (and its spread line) no run measured', () => {
    expect(derived.costs.get('b')).toEqual({
      buildSeconds: 60,
      warmBuildSeconds: 10,
      cacheBytes: 77,
      warmSetupSeconds: 0,
    });
    expect(derived.spreads.get('b')).toEqual({
      warmBuildSpread: { sigma: 0, runs: 1 },
      cacheSpread: { sigma: 0.2, runs: 4 },
      warmSetupSpread: { sigma: 0, runs: 1 },
    });
    expect(derived.notes).toEqual([
      'runs r1, r2, r3 are warm runs: their build seconds are written as `warm-build` lines (caches on), and the cold `build` lines kept',
      'b (run r2): 1 of 1 uploads carry no size; not counted',
    ]);
    expect(derived.builds).toEqual([
      { run: 'r1', node: 'fast', target: 'a', seconds: 100 },
      { run: 'r2', node: 'fast', target: 'a', seconds: 130 },
      { run: 'r3', node: 'fast', target: 'a', seconds: 90 },
      { run: 'r2', node: 'slow', target: 'b', seconds: 10 },
    ]);
  });

  it('renders the spread lines the costs file reads back', () => {
    const merged = new Map(
      [...derived.costs].map(([target, cost]) => [target, { ...cost, ...derived.spreads.get(target) }]),
    );
    const text = renderTargetCosts(merged, []);
    const sigma = Number(referenceSigma([200, 260, 180]).toFixed(3));
    expect(text).toContain(`warm-build-spread a ${sigma} 3\n`);
    expect(parseTargetCosts(text, 'x').costs.get('a')?.warmBuildSpread).toMatchObject({ sigma, runs: 3 });
  });

  it('a single run: the same figures as before (its notes: derive-target-costs.test.ts), and sigma 0 over 1 run', () => {
    const one = deriveTargetCosts({ run: runs[0]!.run, traces: runs[0]!.traces, current });
    expect(one.costs.get('a')).toEqual({
      buildSeconds: 50,
      warmBuildSeconds: 200,
      cacheBytes: 1000,
      warmSetupSeconds: 0,
    });
    expect(one.spreads.get('a')).toEqual({
      warmBuildSpread: { sigma: 0, runs: 1 },
      cacheSpread: { sigma: 0, runs: 1 },
      warmSetupSpread: { sigma: 0, runs: 1 },
    });
  });
});

describe('runs that cannot be pooled are refused, naming the run and the reason', () => {
  const first = { stamp: 'w1', harness: 'warm', lane: 'fleet', arch: 'gfx1201' };
  it.each([
    [{ ...first, stamp: 'c1', harness: 'cold' }, /^run c1 is a cold run and the first, w1, a warm run/],
    [
      { ...first, stamp: 'b1', lane: 'box' },
      /^run b1 is in lane `box` and the first, w1, in lane `fleet`; another lane is another fleet or a scaled box/,
    ],
    [{ ...first, stamp: 'g1', arch: 'gfx942' }, /^run g1 built gfx942 and the first, w1, gfx1201/],
    [{ ...first }, /^run w1 is given twice/],
  ])('%j', (other, reason) => {
    const refusals = findPoolingRefusals([first, other]);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.stamp).toBe(other.stamp);
    expect(refusals[0]!.reason).toMatch(reason);
  });

  it('the command refuses with a usage error naming each run dir', () => {
    const warm = costRun(runFile('w1'), []);
    const cold = costRun(runFile('c1', { harness: 'cold', mode: 'cold' }), []);
    const box = costRun(runFile('b1'), [], 'box-1-150');
    expect(() => refuseUnpoolableRuns([warm, cold, box])).toThrow(
      /^--from: cannot pool these runs: \/runs\/c1: run c1 is a cold run .*; \/runs\/b1: run b1 is in lane `box-1-150`/,
    );
    expect(() => refuseUnpoolableRuns([warm, costRun(runFile('w2'), [])])).not.toThrow();
  });
});
