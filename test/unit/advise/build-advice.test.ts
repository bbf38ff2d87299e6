import { describe, expect, it } from 'vitest';
import type { Advice, DataFile } from '../../../src/artifacts/index.js';
import { buildAdvice } from '../../../src/advise/build-advice.js';
import type { AdviseInput, BlobPush, ProvenanceFact } from '../../../src/advise/advise-input.js';
import { buildSideFigures } from '../../../src/diff/build-side-figures.js';
import { makeRunSide } from '../diff/make-run-side.js';

// The advisor's rules on a run written out by hand. Every saving below is worked out here from the timeline, not
// read back from the replay:
//   node a: link measured 1 MB/s (x uploads 10 MB in 10 s); node b: link_mbps 100, uploads nothing.
//   x on a: 0 → 14 s (build 4 s, upload 10 s). y on b: 0 → 6 s (build 6 s). Makespan 14 s.

const GiB = 2 ** 30;
const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

function makeRun() {
  return makeRunSide({
    stamp: 's3',
    nodes: [
      { name: 'a', speed: 1, linkMbps: 1 },
      { name: 'b', speed: 1, linkMbps: 100 },
    ],
    targets: [
      { target: 'x', node: 'a', startS: 0, finishS: 14, buildS: 4, uploadS: 10, bytes: 10e6 },
      { target: 'y', node: 'b', startS: 0, finishS: 6, buildS: 6, uploadS: 0, bytes: 0 },
    ],
  });
}

function makeInput(over: Partial<AdviseInput> = {}, edit?: (model: DataFile) => void): AdviseInput {
  const run = makeRun();
  edit?.(run.model);
  return {
    stamp: 's3',
    model: run.model,
    side: buildSideFigures(run),
    sideMissing: null,
    provenance: new Map(),
    pushes: new Map(),
    uncachedSeconds: new Map([
      ['x', 3],
      ['y', 5],
    ]),
    registryBlobWrites: null,
    history: [],
    ...over,
  };
}

/** x's upload ≤ its build, so the link rule stays quiet while another rule is under test. */
const quietLink = (model: DataFile) => {
  model.summary.targets.find((t) => t.target === 'x')!.uploadSeconds = 1;
};

const args = (value: string): ProvenanceFact => ({ args: { STAMP: value, GFX: 'gfx1201' }, materials: [] });
const image = (digest: string, pinned = false): ProvenanceFact => ({
  args: {},
  // Pinned as provenance writes an image named with a `digest=` qualifier (parseMaterialRef): the same ref each run.
  materials: [{ ref: pinned ? 'reg:5000/rocm/base' : 'reg:5000/rocm/base:gfx1201', digest, pinned }],
});
const only = (advice: Advice[], kind: Advice['kind']) => advice.filter((entry) => entry.kind === kind);

describe('buildAdvice', () => {
  it('a run with nothing to act on gives no advice (an answer, not an error)', () => {
    expect(buildAdvice(makeInput({}, quietLink))).toEqual([]);
  });

  it('link-bound export: the better what-if of a faster link (x at 2.5 MB/s: 4 + 4 = 8 s) and a move (x after y on b: 6 + 4.1 s)', () => {
    const [advice] = buildAdvice(makeInput());
    expect(advice).toMatchObject({
      kind: 'link-bound-export',
      targets: ['x'],
      nodes: ['a'],
      action:
        "Raise a's upload link to at least 2.5 MB/s (measured 1.0 MB/s), so x's export no longer outlasts its build.",
    });
    expect(advice!.savingSeconds).toBeCloseTo(14 - 8, 9);
    expect(advice!.evidence).toContain('next best: x on b: saves 3.90s');
  });

  it('double cache push: the same blob PUT by the image and the cache export; the replay leaves 2 MB out (14 − 2 = 12 s)', () => {
    const push = (repository: string, kind: BlobPush['kind'], startMs: number): BlobPush => ({
      digest: D1,
      repository,
      bytes: 2e6,
      kind,
      startMs,
      endMs: startMs + 5000,
    });
    const input = makeInput(
      {
        pushes: new Map([['x', [push('rocm/x', 'image', 0), push('rocm/cache', 'cache', 1000)]]]),
        registryBlobWrites: new Map([[D1, ['rocm/x', 'rocm/cache']]]),
      },
      (model) => model,
    );
    const [advice] = only(buildAdvice(input), 'double-cache-push');
    expect(advice!.savingSeconds).toBeCloseTo(2, 9);
    expect(advice!.targets).toEqual(['x']);
    expect(advice!.evidence).toContain(
      'trace-x.json: 1 blob(s), 2.00 MB, pushed twice (into rocm/cache and rocm/x); 1 of the pairs ran at the same time',
    );
    expect(advice!.evidence).toContain(
      'registry log: 1 of these 1 blobs were written at least twice (e.g. sha256:111111111111… into rocm/x and rocm/cache)',
    );
  });

  it('volatile build arg: a new value in each of 3 runs; x (took it, ran its steps) replayed cached: 4 − 3 + 10 = 11 s', () => {
    const input = makeInput(
      {
        provenance: new Map([['x', args('3')]]),
        history: [
          { stamp: 's2', provenance: new Map([['x', args('2')]]) },
          { stamp: 's1', provenance: new Map([['x', args('1')]]) },
        ],
      },
      quietLink,
    );
    const advice = buildAdvice(input);
    expect(advice.map((entry) => entry.kind)).toEqual(['volatile-input']);
    expect(advice[0]!.action).toMatch(/^Stop build arg STAMP changing every run/);
    expect(advice[0]!.savingSeconds).toBeCloseTo(3, 9);
    expect(advice[0]!.evidence[0]).toContain('STAMP = `3`, `2`, `1`, a new value in each');
  });

  it.each([
    ['a value repeats', ['3', '2', '2']],
    ['only two runs', ['3', '2']],
  ])('volatile build arg: none when %s', (_, values) => {
    const [now, ...before] = values;
    const input = makeInput(
      {
        provenance: new Map([['x', args(now!)]]),
        history: before.map((value, k) => ({ stamp: `h${k}`, provenance: new Map([['x', args(value)]]) })),
      },
      quietLink,
    );
    expect(only(buildAdvice(input), 'volatile-input')).toEqual([]);
  });

  it('volatile build arg: with why recorded, only the targets whose why names the arg count', () => {
    const input = makeInput(
      {
        provenance: new Map([
          ['x', args('3')],
          ['y', args('3')],
        ]),
        history: [
          {
            stamp: 's2',
            provenance: new Map([
              ['x', args('2')],
              ['y', args('2')],
            ]),
          },
          {
            stamp: 's1',
            provenance: new Map([
              ['x', args('1')],
              ['y', args('1')],
            ]),
          },
        ],
      },
      (model) => {
        quietLink(model);
        const why = (cause: NonNullable<DataFile['summary']['targets'][number]['why']>['cause']) => ({
          firstMiss: { vertex: 'v', name: 'RUN build' },
          cause,
          rebuiltAfter: [],
          costSeconds: null,
        });
        model.summary.targets[0]!.why = why({ kind: 'build-arg', name: 'STAMP', old: '2', new: '3' });
        model.summary.targets[1]!.why = why({ kind: 'instruction', old: 'RUN a', new: 'RUN b' });
      },
    );
    const [advice] = buildAdvice(input);
    // y (5 s of steps on b, not critical) is not counted: only x is replayed cached.
    expect(advice!.savingSeconds).toBeCloseTo(3, 9);
    expect(advice!.evidence).toContain('data.json why: x missed because of it');
  });

  it('a miss cause replays what was rebuilt after it too (why.rebuiltAfter); a target it cannot replay makes the saving null', () => {
    const input = makeInput(
      {
        provenance: new Map([['x', image(D2)]]),
        history: [{ stamp: 's2', provenance: new Map([['x', image(D1)]]) }],
      },
      (model) => {
        quietLink(model);
        model.summary.targets[0]!.why = {
          firstMiss: { vertex: 'v', name: 'FROM base' },
          cause: { kind: 'input-image', ref: 'docker-image://reg:5000/rocm/base:gfx1201', old: D1, new: D2 },
          rebuiltAfter: ['z'],
          costSeconds: null,
        };
      },
    );
    const [advice] = buildAdvice(input);
    expect(advice!.savingSeconds).toBeNull();
    expect(advice!.evidence).toContain('saving: not replayable: no replayable figures or trace steps for z');
  });

  it('moving tag: moved since the previous run; pin by digest; x replayed cached (11 s)', () => {
    const input = makeInput(
      {
        provenance: new Map([['x', image(D2)]]),
        history: [{ stamp: 's2', provenance: new Map([['x', image(D1)]]) }],
      },
      quietLink,
    );
    const [advice] = buildAdvice(input);
    expect(advice).toMatchObject({ kind: 'moving-tag', targets: ['x'] });
    expect(advice!.action).toContain(`Pin reg:5000/rocm/base:gfx1201 by digest (reg:5000/rocm/base@${D2})`);
    expect(advice!.savingSeconds).toBeCloseTo(3, 9);
  });

  it('moving tag: moved before but not in this run saves 0 here; a digest-pinned input never moves', () => {
    const before = makeInput(
      {
        provenance: new Map([['x', image(D2)]]),
        history: [
          { stamp: 's2', provenance: new Map([['x', image(D2)]]) },
          { stamp: 's1', provenance: new Map([['x', image(D1)]]) },
        ],
      },
      quietLink,
    );
    const [advice] = buildAdvice(before);
    expect(advice!.savingSeconds).toBe(0);
    expect(advice!.evidence).toContain('it resolved to the same digest as in the previous run');
    const pinned = makeInput(
      {
        provenance: new Map([['x', image(D2, true)]]),
        history: [{ stamp: 's2', provenance: new Map([['x', image(D1, true)]]) }],
      },
      quietLink,
    );
    expect(buildAdvice(pinned)).toEqual([]);
  });

  it('moving tag: an image a target of the run pushes is a dependency rebuilt, never a tag to pin', () => {
    // Found on a re-recorded box pair (now fixtures/runs: gfx1201-warm-before and gfx1201-warm): rocm/pytorch,
    // pushed by the run's pytorch target and read by the wheels through a target: context, was advised "pin by
    // digest".
    const input = makeInput(
      {
        provenance: new Map([['x', image(D2)]]),
        history: [{ stamp: 's2', provenance: new Map([['x', image(D1)]]) }],
        pushes: new Map([
          [
            'base',
            [{ digest: D2, repository: 'rocm/base', bytes: 1, kind: 'image' as const, startMs: 0, endMs: 1 }],
          ],
        ]),
      },
      quietLink,
    );
    expect(buildAdvice(input).filter((a) => a.kind === 'moving-tag')).toEqual([]);
  });

  function withMemory(bMemory: number) {
    return (model: DataFile) => {
      const usage = {
        cpuSeconds: null,
        memoryPeakBytes: 7.5 * GiB,
        ioReadBytes: null,
        ioWriteBytes: null,
        pidsPeak: null,
        oomEvents: 0,
      };
      model.summary.targets[0]!.usage = {
        ...usage,
        steps: [
          { vertex: 'v', name: '[2/3] RUN make', source: 'cgroup', ...usage, flags: ['memory-near-limit'] },
        ],
      };
      model.summary.nodes = ['a', 'b'].map((node) => ({
        node,
        builder: node,
        targets: [],
        busySeconds: 0,
        idleSeconds: 0,
        utilisationPct: null,
        cpuMeanPct: null,
        cpuPeakPct: null,
        memPeakPct: null,
        samples: 0,
        sampleGaps: 0,
        measuredUploadMBps: null,
        upload: null,
        configuredLinkMbps: null,
        usage: { ...usage, memoryPeakBytes: null, memoryBytes: node === 'a' ? 8 * GiB : bMemory },
        partial: [],
      }));
    };
  }

  it('memory misfit: 7.5 GiB on an 8 GiB node; x moved to b (64 GiB), after y: 6 + 4 + 0.1 = 10.1 s', () => {
    const [advice] = only(buildAdvice(makeInput({}, withMemory(64 * GiB))), 'memory-misfit');
    expect(advice).toMatchObject({ kind: 'memory-misfit', targets: ['x'], nodes: ['a', 'b'] });
    expect(advice!.action).toBe(
      `Run x on b instead of a: add \`memory x ${7.5 * GiB}\` to the target costs (\`rocm-perf costs --from RUN\` learns it) so the planner keeps it off a.`,
    );
    expect(advice!.savingSeconds).toBeCloseTo(14 - 10.1, 9);
  });

  it('memory misfit: no node fits → no saving to replay, said so', () => {
    const [advice] = only(buildAdvice(makeInput({}, withMemory(8 * GiB))), 'memory-misfit');
    expect(advice!.savingSeconds).toBeNull();
    expect(advice!.evidence).toContain('saving: none to replay: no other node has the memory');
  });

  it('a run that cannot be replayed keeps its advice with a null saving and says why', () => {
    const input = makeInput({
      side: null,
      sideMissing: 'the run dir has no plan.json',
      provenance: new Map([['x', image(D2)]]),
      history: [{ stamp: 's2', provenance: new Map([['x', image(D1)]]) }],
    });
    const advice = buildAdvice(input);
    expect(advice.map((entry) => [entry.kind, entry.savingSeconds])).toEqual([
      ['link-bound-export', null],
      ['moving-tag', null],
    ]);
    for (const entry of advice)
      expect(entry.evidence).toContain('saving: not replayable: the run dir has no plan.json');
  });

  it('ranks by saving, largest first', () => {
    const input = makeInput({
      provenance: new Map([['x', image(D2)]]),
      history: [{ stamp: 's2', provenance: new Map([['x', image(D1)]]) }],
    });
    expect(buildAdvice(input).map((entry) => entry.kind)).toEqual(['link-bound-export', 'moving-tag']);
  });
});
