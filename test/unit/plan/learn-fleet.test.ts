import { describe, expect, it } from 'vitest';
import type { TargetTrace, TraceUpload } from '../../../src/collect/types.js';
import type { RunFile } from '../../../src/artifacts/index.js';
import { createTrace, createUpload, ok } from './cost-run-fixture.js';
import {
  fitNodeSpeeds,
  learnFleet,
  measureUploadLinks,
  toFleetEdits,
  toUploadObservations,
  type BuildObservation,
} from '../../../src/plan/index.js';
import { judgeChange } from '../../../src/plan/learn-fleet.js';

// The fleet model learns: upload throughput = bytes ÷ union of upload spans; speeds from a least-squares fit of
// ln(build seconds) on targets that ran on several nodes.

const upload = (bytes: number | null, startMs: number, endMs: number): TraceUpload =>
  createUpload(bytes, { startMs, endMs, kind: 'cache' });
const trace = (target: string, uploads: TraceUpload[]): TargetTrace =>
  createTrace(target, { buildSeconds: 1, uploads, totalSteps: 1 });
const run = (stamp: string, targets: RunFile['targets']) => ({ stamp, targets });

describe('upload throughput: bytes ÷ the union of upload spans', () => {
  // kiln at a true 0.5 MB/s: in r1, target a pushes two blobs in parallel (overlapping spans [0, 2 s] and
  // [1 s, 3 s]: 3 s of link time, 1.5 MB); target b later 0.5 MB in [10 s, 11 s]. In r2, target a again, 2 MB in
  // 4 s, as three overlapping requests. Total 4 MB in 3 + 1 + 4 = 8 s → 0.5 MB/s.
  const r1 = toUploadObservations({
    run: run('r1', { a: ok('kiln'), b: ok('kiln') }),
    traces: [
      trace('a', [upload(1_000_000, 0, 2000), upload(500_000, 1000, 3000)]),
      trace('b', [upload(500_000, 10_000, 11_000)]),
    ],
  });
  const r2 = toUploadObservations({
    run: run('r2', { a: ok('kiln') }),
    traces: [trace('a', [upload(800_000, 0, 1600), upload(700_000, 500, 3000), upload(500_000, 2900, 4000)])],
  });

  it('recovers the known throughput, counting overlapping spans once', () => {
    const [kiln] = measureUploadLinks([...r1.uploads, ...r2.uploads]);
    expect(kiln).toMatchObject({
      node: 'kiln',
      bytes: 4_000_000,
      uploadSeconds: 8,
      targets: 2,
      runs: 2,
      units: 3,
    });
    expect(kiln!.measuredMBps).toBeCloseTo(0.5, 12);
    expect(kiln!.sigma).toBeCloseTo(0, 12);
  });

  it('a target with an upload of unknown size is left out of its node, with a note; failed targets too', () => {
    const observed = toUploadObservations({
      run: run('r3', { a: ok('kiln'), b: ok('kiln'), c: { status: 'skipped', node: 'kiln', reason: 'x' } }),
      traces: [
        trace('a', [upload(1_000_000, 0, 1000), upload(null, 0, 5000)]),
        trace('b', [upload(1_000_000, 0, 4000)]),
        trace('c', [upload(1_000_000, 0, 1)]),
      ],
    });
    expect(observed.uploads.map((u) => u.target)).toEqual(['b']);
    expect(observed.notes).toEqual([
      "a (run r3): 1 of 2 uploads carry no size; its uploads are left out of kiln's throughput",
    ]);
    expect(measureUploadLinks(observed.uploads)[0]!.measuredMBps).toBeCloseTo(0.25, 12);
  });
});

/** A deterministic ±0.4 % wobble, so the fit has residuals but known answers. */
const wobble = (i: number) => 1 + 0.004 * Math.sin(i * 12.9898);

describe('fitNodeSpeeds', () => {
  const truth: Record<string, number> = { forge: 2, anvil: 1, bench: 0.5, kiln: 1.25 };
  const base: Record<string, number> = { t1: 600, t2: 1200, t3: 90, t4: 3000, t5: 45, t6: 700 };
  const placements: [string, string, string][] = [
    ['r1', 't1', 'forge'],
    ['r1', 't2', 'anvil'],
    ['r1', 't3', 'bench'],
    ['r1', 't4', 'kiln'],
    ['r1', 't5', 'forge'],
    ['r1', 't6', 'edge'],
    ['r2', 't1', 'anvil'],
    ['r2', 't2', 'bench'],
    ['r2', 't3', 'kiln'],
    ['r2', 't4', 'forge'],
    ['r2', 't5', 'anvil'],
    ['r2', 't6', 'edge'],
    ['r3', 't1', 'bench'],
    ['r3', 't3', 'forge'],
    ['r3', 't4', 'anvil'],
  ];
  const builds: BuildObservation[] = placements.map(([runStamp, target, node], i) => ({
    run: runStamp,
    node,
    target,
    seconds: (base[target]! / (truth[node] ?? 1)) * wobble(i),
  }));
  // Configured speeds all equal to the true speeds' geometric mean: the anchor then puts the fit on the truth.
  const geomean = Math.exp(Object.values(truth).reduce((s, v) => s + Math.log(v), 0) / 4);
  const configured = new Map([...Object.keys(truth), 'edge', 'idle'].map((node) => [node, geomean]));
  const fit = fitNodeSpeeds({ builds, configured });

  it('recovers known speeds within 1 %', () => {
    for (const [node, speed] of Object.entries(truth)) {
      const estimate = fit.nodes.find((n) => n.node === node);
      expect(estimate?.status).toBe('fitted');
      if (estimate?.status === 'fitted') expect(Math.abs(estimate.speed / speed - 1)).toBeLessThan(0.01);
    }
    expect(fit.residualSigma).toBeGreaterThan(0);
    expect(fit.residualSigma).toBeLessThan(0.01);
  });

  it('anchors the fitted geometric mean on the configured one', () => {
    const fitted = fit.nodes.flatMap((n) => (n.status === 'fitted' ? [Math.log(n.speed)] : []));
    expect(Math.exp(fitted.reduce((s, v) => s + v, 0) / fitted.length)).toBeCloseTo(geomean, 12);
  });

  it('a node with no shared target has no estimate; neither has one with no builds', () => {
    expect(fit.nodes.find((n) => n.node === 'edge')).toEqual({
      node: 'edge',
      status: 'no-evidence',
      builds: 2,
      reason: 'no target it built ran on another node in these runs',
    });
    expect(fit.nodes.find((n) => n.node === 'idle')).toMatchObject({ status: 'no-evidence', builds: 0 });
  });

  it('without noise the fit is exact, and two disconnected groups are each anchored on their own', () => {
    const exact = fitNodeSpeeds({
      builds: [
        { run: 'r', node: 'a', target: 'x', seconds: 100 },
        { run: 'r', node: 'b', target: 'x', seconds: 50 },
        { run: 'r', node: 'c', target: 'y', seconds: 30 },
        { run: 'r', node: 'd', target: 'y', seconds: 90 },
      ],
      configured: new Map([
        ['a', 1],
        ['b', 1],
        ['c', 3],
        ['d', 3],
      ]),
    });
    const speeds = Object.fromEntries(exact.nodes.map((n) => [n.node, n.status === 'fitted' ? n.speed : 0]));
    expect(speeds.a).toBeCloseTo(Math.SQRT1_2, 12);
    expect(speeds.b).toBeCloseTo(Math.SQRT2, 12);
    expect(speeds.c).toBeCloseTo(3 * Math.sqrt(3), 12);
    expect(speeds.d).toBeCloseTo(3 / Math.sqrt(3), 12);
    expect(exact.residualSigma).toBeUndefined();
  });
});

describe('suggestions', () => {
  it.each([
    [{ measured: 0.19, configured: 0.215, logSe: 0.02 }, true, undefined],
    [{ measured: 0.2, configured: 0.215, logSe: 0.001 }, false, 'within 10 %'],
    [{ measured: 0.15, configured: 0.215, logSe: 0.2 }, false, 'within twice its standard error'],
    [
      { measured: 0.15, configured: 0.215, logSe: undefined },
      false,
      'too few measurements to know their spread',
    ],
  ])('%j', (input, suggest, why) => {
    expect(judgeChange(input)).toEqual({ suggest, why });
  });

  it('learnFleet: a suggested link rounded to three digits; a node that uploaded nothing is named', () => {
    const observed = toUploadObservations({
      run: run('r1', { a: ok('kiln'), b: ok('kiln'), c: ok('kiln') }),
      traces: [
        trace('a', [upload(190_000, 0, 1000)]),
        trace('b', [upload(380_000, 2000, 4000)]),
        trace('c', [upload(200_000, 5000, 6000)]),
      ],
    });
    const learning = learnFleet({
      uploads: observed.uploads,
      builds: [],
      nodes: [
        { name: 'kiln', linkMbps: 0.215, speed: 1 },
        { name: 'forge', linkMbps: 112, speed: 1 },
      ],
    });
    expect(learning.links[0]).toMatchObject({ node: 'kiln', suggestedMbps: 0.193, configuredMbps: 0.215 });
    expect(learning.unmeasuredLinks).toEqual(['forge']);
    expect(toFleetEdits(learning)).toEqual([{ node: 'kiln', key: 'link_mbps', value: 0.193 }]);
  });
});
