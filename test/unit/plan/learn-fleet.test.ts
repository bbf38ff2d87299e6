import { describe, expect, it } from 'vitest';
import type { TargetTrace, TraceUpload } from '../../../src/collect/types.js';
import type { RunFile } from '../../../src/artifacts/index.js';
import { createTrace, createUpload, ok } from './cost-run-fixture.js';
import {
  learnFleet,
  measureUploadLinks,
  toFleetEdits,
  toUploadObservations,
} from '../../../src/plan/index.js';
import { fitNodeSpeeds, type BuildObservation } from '../../../src/plan/fit-node-speeds.js';
import { judgeChange } from '../../../src/plan/learn-fleet.js';

// The fleet model learns: each node's link as latency per request + bytes ÷ rate, fitted over its requests; speeds
// from a least-squares fit of ln(build seconds) on targets that ran on several nodes.

const upload = (bytes: number | null, startMs: number, endMs: number): TraceUpload =>
  createUpload(bytes, { startMs, endMs, kind: 'cache' });
const trace = (target: string, uploads: TraceUpload[]): TargetTrace =>
  createTrace(target, { buildSeconds: 1, uploads, totalSteps: 1 });
const run = (stamp: string, targets: RunFile['targets']) => ({ stamp, targets });

/**
 * A push as the box makes one (the truth, computed here, not by the product): each request costs `latencyMs` plus
 * the bytes the link carries while it runs ÷ `rateMBps`. A blob goes up as an image PUT and a cache PUT side by side
 * (same span, so each carries both blobs' bytes), around a dozen small requests (POSTs, manifests, configs) one after
 * another. `jitter` spreads each request's latency deterministically by up to ±jitter.
 */
function pushOf({
  latencyMs,
  rateMBps,
  blobBytes,
  startMs = 0,
  jitter = 0.5,
  seed = 1,
}: {
  latencyMs: number;
  rateMBps: number;
  blobBytes: number;
  startMs?: number;
  jitter?: number;
  seed?: number;
}): TraceUpload[] {
  const uploads: TraceUpload[] = [];
  let now = startMs;
  const latency = (k: number) => latencyMs * (1 + jitter * Math.sin((seed * 31 + k) * 12.9898));
  for (let k = 0; k < 12; k++) {
    const bytes = k % 3 === 0 ? 0 : 800 + 100 * k;
    const ms = latency(k) + bytes / rateMBps / 1000;
    uploads.push(upload(bytes, now, now + ms));
    now += ms;
  }
  const blobMs = latency(12) + (2 * blobBytes) / rateMBps / 1000;
  uploads.push(upload(blobBytes, now, now + blobMs), upload(blobBytes, now, now + blobMs));
  return uploads;
}

describe('upload links: each request fitted as latency + the bytes on the link ÷ a rate', () => {
  it('recovers a known rate and latency from pushes large enough to tell, where bytes ÷ time reads far under', () => {
    // kiln at 0.2 MB/s with 40 ms a request: blobs of 200 kB and 400 kB (2–4 s on the wire, alone or in pairs).
    const r1 = toUploadObservations({
      run: run('r1', { a: ok('kiln'), b: ok('kiln') }),
      traces: [
        trace('a', pushOf({ latencyMs: 40, rateMBps: 0.2, blobBytes: 200_000, seed: 1 })),
        trace('b', pushOf({ latencyMs: 40, rateMBps: 0.2, blobBytes: 400_000, startMs: 60_000, seed: 2 })),
      ],
    });
    const r2 = toUploadObservations({
      run: run('r2', { a: ok('kiln') }),
      traces: [trace('a', pushOf({ latencyMs: 40, rateMBps: 0.2, blobBytes: 300_000, seed: 3 }))],
    });
    const [kiln] = measureUploadLinks([...r1.uploads, ...r2.uploads]);
    expect(kiln).toMatchObject({ node: 'kiln', targets: 2, runs: 2, bytes: 2 * 900_000 + 3 * 11_200 });
    expect(kiln!.fit.requests).toBe(3 * 14);
    expect(Math.abs(kiln!.fit.rateMBps! / 0.2 - 1)).toBeLessThan(0.05);
    expect(Math.abs(kiln!.fit.latencyMs - 40)).toBeLessThan(10);
    expect(kiln!.fit.wireBound).toBe(6);
    // The effective throughput (bytes ÷ union of spans) is still reported, and reads the latency into the rate.
    expect(kiln!.effectiveMBps).toBeLessThan(0.2 * 0.9);
  });

  it('counts a request sharing the link with a parallel one as carrying both: a lone fit would halve the rate', () => {
    const observed = toUploadObservations({
      run: run('r1', { a: ok('anvil'), b: ok('anvil'), c: ok('anvil') }),
      traces: ['a', 'b', 'c'].map((name, k) =>
        trace(
          name,
          pushOf({
            latencyMs: 30,
            rateMBps: 5,
            blobBytes: 2_000_000 + k * 1_000_000,
            startMs: k * 10_000,
            seed: k,
          }),
        ),
      ),
    });
    const [anvil] = measureUploadLinks(observed.uploads);
    expect(Math.abs(anvil!.fit.rateMBps! / 5 - 1)).toBeLessThan(0.05);
  });

  it("small warm pushes are mostly latency: the rate is not suggested however low bytes ÷ time reads (the issue's forge)", () => {
    // forge at 5.6 MB/s, 40 ms a request, blobs of 30–60 kB: 5–11 ms on the wire against 40 ms of latency.
    const observed = [1, 2, 3].map((k) =>
      toUploadObservations({
        run: run(`r${k}`, { a: ok('forge') }),
        traces: [trace('a', pushOf({ latencyMs: 40, rateMBps: 5.6, blobBytes: 30_000 * k, seed: k }))],
      }),
    );
    const learning = learnFleet({
      uploads: observed.flatMap((o) => o.uploads),
      builds: [],
      nodes: [{ name: 'forge', linkMbps: 5.6, speed: 1 }],
    });
    const [forge] = learning.links;
    expect(forge!.effectiveMBps).toBeLessThan(0.6);
    expect(forge!.fit.wireBound).toBeLessThan(2);
    expect(forge!.suggestedMbps).toBeUndefined();
    expect(forge!.verdict.why).toMatch(/^transfers too small to tell the rate: \d+ of 42 requests/);
    expect(toFleetEdits(learning)).toEqual([]);
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
    expect(measureUploadLinks(observed.uploads)[0]!.effectiveMBps).toBeCloseTo(0.25, 12);
  });

  it('the effective throughput counts overlapping spans once', () => {
    const r1 = toUploadObservations({
      run: run('r1', { a: ok('kiln') }),
      traces: [trace('a', [upload(1_000_000, 0, 2000), upload(500_000, 1000, 3000)])],
    });
    const [kiln] = measureUploadLinks(r1.uploads);
    expect(kiln).toMatchObject({ bytes: 1_500_000, uploadSeconds: 3 });
    expect(kiln!.effectiveMBps).toBeCloseTo(0.5, 12);
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
    // kiln really at 0.19 MB/s, configured 0.215: pushes of 100–300 kB are wire-bound.
    const observed = [1, 2, 3].map((k) =>
      toUploadObservations({
        run: run(`r${k}`, { a: ok('kiln') }),
        traces: [trace('a', pushOf({ latencyMs: 30, rateMBps: 0.19, blobBytes: 100_000 * k, seed: k }))],
      }),
    );
    const learning = learnFleet({
      uploads: observed.flatMap((o) => o.uploads),
      builds: [],
      nodes: [
        { name: 'kiln', linkMbps: 0.215, speed: 1 },
        { name: 'forge', linkMbps: 112, speed: 1 },
      ],
    });
    const suggested = learning.links[0]!.suggestedMbps!;
    expect(learning.links[0]).toMatchObject({ node: 'kiln', configuredMbps: 0.215 });
    expect(Math.abs(suggested / 0.19 - 1)).toBeLessThan(0.03);
    expect(suggested).toBe(Number(suggested.toPrecision(3)));
    expect(learning.unmeasuredLinks).toEqual(['forge']);
    expect(toFleetEdits(learning)).toEqual([{ node: 'kiln', key: 'link_mbps', value: suggested }]);
  });
});
