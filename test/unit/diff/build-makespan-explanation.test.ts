import { describe, expect, it } from 'vitest';
import { buildRunDiff, renderRunDiffMd } from '../../../src/diff/index.js';
import { NO_EXPLANATION } from '../../../src/diff/build-diff-explanation.js';
import { type CauseShare, type MakespanExplanation } from '../../../src/diff/build-makespan-explanation.js';
import { renderRunDiffHtml } from '../../../src/diff/render-run-diff-html.js';
import { makeRunSide, type RunSideSpec } from './make-run-side.js';
import { INTERACTING_PAIR, RUN_A, SYNTHETIC_PAIRS, type Truth } from './synthetic-pairs.js';

// The makespan change split by cause on pairs of hand-built runs where the cause and its effect are known
// (synthetic-pairs.ts): one changed cause takes at least 90 % of the change, two independent causes each get
// their isolated effect, and every split adds up to the measured change.

function explain(b: RunSideSpec, a: RunSideSpec = RUN_A): MakespanExplanation {
  const diff = buildRunDiff({ a: makeRunSide(a), b: makeRunSide(b) });
  expect(diff.explanation).not.toBeNull();
  return diff.explanation!;
}

function findShare(explanation: MakespanExplanation, truth: Truth): number {
  const cause = explanation.causes.find(
    (c) =>
      c.kind === truth.cause &&
      (truth.subject === undefined ||
        (c.kind === 'build' && c.target === truth.subject) ||
        (c.kind === 'upload-throughput' && c.node === truth.subject)),
  );
  return cause?.shareSeconds ?? 0;
}

const keyOf = (c: CauseShare) =>
  `${c.kind}:${c.kind === 'build' ? c.target : c.kind === 'upload-throughput' ? c.node : ''}`;
const sum = (causes: readonly CauseShare[]) => causes.reduce((total, c) => total + c.shareSeconds, 0);

describe('buildMakespanExplanation on synthetic pairs with one known cause', () => {
  const single = SYNTHETIC_PAIRS.filter((pair) => pair.truths.length === 1);

  it.each(single.map((pair) => [pair.name, pair] as const))(
    '%s: that cause gets at least 90 % of the change',
    (_, pair) => {
      const explanation = explain(pair.b);
      expect(explanation.actualSeconds.delta).toBe(pair.deltaSeconds);
      expect(findShare(explanation, pair.truths[0]!)).toBeGreaterThanOrEqual(0.9 * pair.deltaSeconds);
    },
  );

  it.each(SYNTHETIC_PAIRS.map((pair) => [pair.name, pair] as const))(
    '%s: the shares, other included, add up to the measured change exactly',
    (_, pair) => {
      const explanation = explain(pair.b);
      expect(sum(explanation.causes)).toBeCloseTo(explanation.actualSeconds.delta!, 9);
      expect(explanation.causes.at(-1)!.kind).toBe('other');
    },
  );

  it('replays each side with its own figures to its measured makespan', () => {
    for (const pair of SYNTHETIC_PAIRS) {
      const explanation = explain(pair.b);
      expect(explanation.modelErrorSeconds).toEqual({ a: 0, b: 0 });
      expect(explanation.modelSeconds.a).toBe(331);
    }
  });

  it('names only causes whose figure differs (an unchanged run has none, and no change)', () => {
    const explanation = explain(RUN_A);
    expect(explanation.method).toEqual({ kind: 'exact', causes: 0, permutations: null, seed: null });
    expect(explanation.causes).toEqual([expect.objectContaining({ kind: 'other', shareSeconds: 0 })]);
  });

  it('writes one sentence per cause: share, figure change and critical path membership', () => {
    const [build] = explain(SYNTHETIC_PAIRS[0]!.b).causes;
    expect(build).toMatchObject({ kind: 'build', target: 'y', onCriticalPath: true, shareSeconds: 100 });
    expect(build!.sentence).toBe('+1m40s y build (+67 %, on the critical path)');
    const [throughput] = explain(SYNTHETIC_PAIRS[1]!.b).causes;
    expect(throughput!.sentence).toBe('+30.00s n2 upload throughput (50.0 → 25.0 MB/s)');
    const [placement] = explain(SYNTHETIC_PAIRS[2]!.b).causes;
    expect(placement!.sentence).toBe('+50.00s placement or dispatch (x n1 → n2, y n2 → n1)');
    const [waiting] = explain(SYNTHETIC_PAIRS[4]!.b).causes;
    expect(waiting!.sentence).toBe(
      '+1m00s waiting on dependencies or bootstrap (start delay n1 1.00s → 61.00s; start lags the model does not explain 0.00s → 0.00s in total)',
    );
  });
});

describe('buildMakespanExplanation on synthetic pairs with two known causes', () => {
  const double = SYNTHETIC_PAIRS.filter((pair) => pair.truths.length === 2);

  it.each(double.map((pair) => [pair.name, pair] as const))(
    '%s: each cause gets its isolated effect within 3 % of the change',
    (_, pair) => {
      const explanation = explain(pair.b);
      for (const truth of pair.truths)
        expect(Math.abs(findShare(explanation, truth) - truth.isolatedSeconds)).toBeLessThanOrEqual(
          0.03 * pair.deltaSeconds,
        );
    },
  );
});

describe('buildMakespanExplanation on overlapping causes', () => {
  it('splits an overlap evenly: two causes that each alone add 20 s, together 20 s, get 10 s each', () => {
    const explanation = explain(INTERACTING_PAIR.b);
    expect(explanation.actualSeconds.delta).toBe(20);
    for (const truth of INTERACTING_PAIR.truths) expect(findShare(explanation, truth)).toBe(10);
  });
});

describe('the explanation does not depend on how the runs are listed', () => {
  it('gives the same split when run.json lists its targets in another order', () => {
    const pair = SYNTHETIC_PAIRS[5]!;
    const a = makeRunSide(RUN_A);
    const b = makeRunSide(pair.b);
    const reversed = {
      ...b,
      runFile: { ...b.runFile, targets: Object.fromEntries(Object.entries(b.runFile.targets).reverse()) },
    };
    const first = buildRunDiff({ a, b }).explanation;
    const second = buildRunDiff({ a, b: reversed }).explanation;
    expect(second).toEqual(first);
  });

  it('agrees, sampled, with the exact split within its standard errors', () => {
    const pair = SYNTHETIC_PAIRS[5]!;
    const sides = { a: makeRunSide(RUN_A), b: makeRunSide(pair.b) };
    const exact = buildRunDiff(sides).explanation!;
    const sampled = buildRunDiff({
      ...sides,
      shapley: { exactMaxPlayers: 0, permutations: 400 },
    }).explanation!;
    expect(sampled.method).toEqual({ kind: 'sampled', causes: 2, permutations: 400, seed: 29 });
    for (const cause of sampled.causes) {
      const twin = exact.causes.find((c) => keyOf(c) === keyOf(cause))!;
      expect(Math.abs(cause.shareSeconds - twin.shareSeconds)).toBeLessThanOrEqual(
        4 * (cause.standardErrorSeconds ?? 0) + 0.002,
      );
    }
    expect(sum(sampled.causes)).toBeCloseTo(sampled.actualSeconds.delta!, 9);
  });
});

describe('what the explanation leaves to "other", and when there is none', () => {
  it('leaves a target found in B only out of the replays, puts its effect in other and says so', () => {
    // extra runs on n2 after w: 331 → 356 (15 build + 5e8 B / 5e7 B/s = 10 upload).
    const b: RunSideSpec = {
      ...RUN_A,
      stamp: 'B',
      targets: [
        ...RUN_A.targets,
        {
          target: 'extra',
          node: 'n2',
          waitFor: ['base'],
          startS: 331,
          buildS: 15,
          uploadS: 10,
          bytes: 5e8,
          finishS: 356,
        },
      ],
    };
    const explanation = explain(b);
    expect(explanation.actualSeconds.delta).toBe(25);
    expect(explanation.causes).toEqual([
      expect.objectContaining({ kind: 'other', shareSeconds: 25, leftOut: ['extra'] }),
    ]);
    expect(explanation.causes[0]!.sentence).toBe(
      '+25.00s other: the measured change (+25.00s) less the modelled one (±0); includes extra, left out of the replays',
    );
    expect(explanation.notes).toEqual([
      'left out of the replays, so their effect is in "other": extra (in one run only, or finished in one only)',
      'the replay of B with its own figures gives 331 s against 356 s measured: read the shares as rough',
    ]);
  });

  it.each([
    ['plan.json', { plan: undefined }, 'run B has no plan.json'],
    ['run.json', { runFile: undefined }, 'run B has no run.json'],
  ] as const)('has no explanation, and says so at the top, when B lacks %s', (_, drop, reason) => {
    const diff = buildRunDiff({
      a: makeRunSide(RUN_A),
      b: { ...makeRunSide(SYNTHETIC_PAIRS[0]!.b), ...drop },
    });
    expect(diff.explanation).toBeNull();
    expect(diff.notes[0]).toBe(
      `${NO_EXPLANATION}: ${reason} (the replays need the queues, waits and times of both)`,
    );
    const md = renderRunDiffMd(diff);
    expect(md).not.toContain('other:');
    expect(md).not.toContain('Model check');
    expect(md.split('\n').slice(0, 5)).toEqual([
      '# Run diff (warm harness, lane fleet)',
      '',
      '## Why the makespan changed',
      '',
      `**Makespan:** +1m40s (+30%); ${diff.notes[0]}.`,
    ]);
    expect(md.match(/no split of the makespan change/g)).toHaveLength(1);
    expect(renderRunDiffHtml(diff)).toContain(reason);
  });
});

describe('renderRunDiffMd and renderRunDiffHtml open with the explanation', () => {
  const diff = buildRunDiff({ a: makeRunSide(RUN_A), b: makeRunSide(SYNTHETIC_PAIRS[5]!.b) });

  it('puts the split right under the title, largest share first and other last', () => {
    const lines = renderRunDiffMd(diff).split('\n');
    expect(lines.slice(0, 9)).toEqual([
      '# Run diff (warm harness, lane fleet)',
      '',
      '## Why the makespan changed',
      '',
      '**Makespan:** 331.00s → 391.00s (+60.00s, +18 %), split by cause; the lines add up to the change:',
      '',
      '- +50.00s y build (+33 %, on the critical path)',
      '- +10.00s n1 upload throughput (100 → 50.0 MB/s)',
      '- ±0 other: the measured change (+60.00s) less the modelled one (+60.00s)',
    ]);
    expect(lines[10]).toContain('Shapley values, exact over every subset (2 causes differ)');
    expect(lines[10]).toContain('gives 331.00s for A (measured 331.00s, error ±0)');
  });

  it('writes a page with the sentences first, a bar per cause and no script', () => {
    const html = renderRunDiffHtml(diff);
    expect(html.indexOf('+50s y build')).toBeLessThan(html.indexOf('Targets in both runs'));
    expect(html).toContain('<svg role="img" aria-label="makespan change by cause"');
    expect(html).not.toContain('<script');
  });
});
