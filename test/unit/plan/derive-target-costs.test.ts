import { describe, expect, it } from 'vitest';
import type { TraceUpload } from '../../../src/collect/types.js';
import { createRunFile, createTrace, createUpload, ok } from './cost-run-fixture.js';
import type { TargetCost } from '../../../src/config/parse-target-costs.js';
import { deriveTargetCosts } from '../../../src/plan/derive-target-costs.js';
import type { RunFile } from '../../../src/artifacts/index.js';

const upload = (bytes: number | null, kind: TraceUpload['kind']) => createUpload(bytes, { endMs: 1, kind });
const trace = createTrace;
const cost = (buildSeconds: number, cacheBytes: number): TargetCost => ({
  buildSeconds,
  cacheBytes,
  warmBuildSeconds: undefined,
  warmBuildLine: undefined,
  buildLine: 1,
  cacheLine: 2,
});
function runFile(harness: RunFile['harness']): RunFile {
  return createRunFile({
    harness,
    targets: {
      a: ok('fast'),
      b: ok('slow'),
      c: { status: 'failed', node: 'slow', startedAtMs: 0, finishedAtMs: 1, exitCode: 1, error: 'x' },
    },
  });
}

describe('deriveTargetCosts', () => {
  const current = new Map([
    ['a', cost(50, 10)],
    ['b', cost(60, 20)],
    ['c', cost(70, 30)],
    ['d', cost(80, 40)],
  ]);

  it('warm: build seconds (speed-normalised) become warm-build figures, cold ones kept; bytes = every upload', () => {
    const traces = new Map([
      ['a', trace('a', { buildSeconds: 100, uploads: [upload(4_000, 'image'), upload(6_000, 'cache')] })],
      [
        'b',
        trace('b', {
          buildSeconds: 30,
          cachedSteps: 9,
          uploads: [upload(500, 'image'), upload(null, 'cache')],
        }),
      ],
      ['c', trace('c', { buildSeconds: 5 })],
    ]);
    const derived = deriveTargetCosts({ run: runFile('warm'), traces, current });
    expect(Object.fromEntries(derived.costs)).toEqual({
      a: { buildSeconds: 50, warmBuildSeconds: 200, cacheBytes: 10_000, warmSetupSeconds: 0 },
      b: { buildSeconds: 60, warmBuildSeconds: 30, cacheBytes: 20, warmSetupSeconds: 0 },
      c: { buildSeconds: 70, warmBuildSeconds: undefined, cacheBytes: 30 },
      d: { buildSeconds: 80, warmBuildSeconds: undefined, cacheBytes: 40 },
    });
    expect(derived.updated).toEqual({
      build: [],
      warmBuild: ['a', 'b'],
      cache: ['a'],
      image: [],
      setup: ['a', 'b'],
      memory: [],
    });
    expect(derived.notes).toEqual([
      'run s1 is a warm run: its build seconds are written as `warm-build` lines (caches on), and the cold `build` lines kept',
      'b: 1 of 2 uploads carry no size; cache figure kept rather than under-count',
      'c: failed in this run; figures kept',
    ]);
  });

  it.each([
    [
      'cold',
      /^run s1 is a cold run: its byte figures are written as `image` lines and the cache lines kept\. .*under-counted a target's upload up to 4\.3×/,
    ],
    [
      'bench',
      /^run s1 is a bench run: its byte figures are written as `image` lines .*pushes only the image/,
    ],
  ] as const)(
    '%s: build seconds become build figures; its bytes become the image figure, never the cache one, and it says why',
    (harness, note) => {
      const traces = new Map([['a', trace('a', { buildSeconds: 100, uploads: [upload(4_000, 'image')] })]]);
      const derived = deriveTargetCosts({ run: runFile(harness), traces, current });
      expect(derived.costs.get('a')).toEqual({
        buildSeconds: 200,
        warmBuildSeconds: undefined,
        cacheBytes: 10,
        imageBytes: 4_000,
        setupSeconds: 0,
      });
      expect(derived.updated).toEqual({
        build: ['a'],
        warmBuild: [],
        cache: [],
        image: ['a'],
        setup: ['a'],
        memory: [],
      });
      expect(derived.notes[0]).toMatch(note);
      // The notes name only targets of this graph (a, b, c, d): no wheel of the real fleet's graph.
      expect(derived.notes.join('\n')).not.toMatch(/\b[\w-]+-wheel\b|\bpytorch\b/);
    },
  );

  it('cold: an upload without a size keeps the image figure rather than under-count', () => {
    const unsized = new Map([
      ['a', trace('a', { buildSeconds: 100, uploads: [upload(4_000, 'image'), upload(null, 'image')] })],
    ]);
    const kept = deriveTargetCosts({
      run: runFile('cold'),
      traces: unsized,
      current: new Map([['a', { ...current.get('a')!, imageBytes: 3_000 }]]),
    });
    expect(kept.costs.get('a')?.imageBytes).toBe(3_000);
    expect(kept.notes).toContain(
      'a: 1 of 2 uploads carry no size; image figure kept rather than under-count',
    );
  });

  it('setup: run.json start to finish, less the step span and the union of the upload spans', () => {
    const run = runFile('cold');
    run.targets.a = { status: 'ok', node: 'fast', startedAtMs: 10_000, finishedAtMs: 16_500 };
    const uploads = [
      { ...upload(10, 'image'), startMs: 1000, endMs: 2000 },
      { ...upload(10, 'image'), startMs: 1500, endMs: 2500 },
    ];
    const traces = new Map([['a', trace('a', { buildSeconds: 4, uploads })]]);
    // 6.5 s in the harness − 4 s of steps − 1.5 s of uploads (1.0–2.5 s, overlap counted once) = 1 s.
    expect(deriveTargetCosts({ run, traces, current }).costs.get('a')?.setupSeconds).toBeCloseTo(1, 9);
  });
});
