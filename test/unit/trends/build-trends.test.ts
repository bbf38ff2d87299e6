import { describe, expect, it } from 'vitest';
import { buildTrends, toTrendRun } from '../../../src/trends/index.js';
import {
  buildMetricTrend,
  DEFAULT_TREND_RULE,
  isRegression,
  toMedian,
  type TrendRun,
} from '../../../src/trends/build-trends.js';
import { makeModel } from '../diff/make-model.js';

const rule = DEFAULT_TREND_RULE;

function run(
  stamp: string,
  harness: string,
  makespanSeconds: number | null,
  targets: Record<string, [number, number]> = {},
  status = 'completed',
  lane = 'fleet',
): TrendRun {
  return {
    stamp,
    harness,
    lane,
    status,
    makespanSeconds,
    forecast: null,
    targets: Object.entries(targets).map(([target, [buildSeconds, uploadBytes]]) => ({
      target,
      status: 'ok',
      startMs: 0,
      endMs: 1,
      buildSeconds,
      uploadBytes,
    })),
  };
}

describe('the regression rule', () => {
  it.each([
    [1000, 1200, 'seconds', true],
    [1000, 1100, 'seconds', false],
    [1000, 1101, 'seconds', true],
    [100, 125, 'seconds', false],
    [100, 131, 'seconds', true],
    [1000, 900, 'seconds', false],
    [1_000_000_000, 1_150_000_000, 'bytes', true],
    [100_000_000, 190_000_000, 'bytes', false],
    [100_000_000, 201_000_000, 'bytes', true],
  ] as const)('baseline %s, value %s (%s): regression %s', (baseline, value, unit, expected) => {
    expect(isRegression({ value, baseline, unit, rule })).toBe(expected);
  });

  it.each([
    [[], null],
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
  ] as const)('median of %j is %s', (values, expected) => {
    expect(toMedian(values)).toBe(expected);
  });

  it('compares each point with the median of up to 5 previous values, after at least 3', () => {
    const stamps = ['1', '2', '3', '4', '5', '6', '7', '8'];
    const values = [100, 110, null, 90, 200, 100, 105, 300];
    const trend = buildMetricTrend({ stamps, values, unit: 'seconds', rule });
    expect(trend.points.map((p) => [p.baseline, p.regression])).toEqual([
      [null, false],
      [null, false],
      [null, false],
      [null, false],
      [100, true],
      [105, false],
      [100, false],
      [105, true],
    ]);
  });
});

describe('buildTrends', () => {
  const runs = [
    run('20260301T000000Z', 'warm', 1000, { pytorch: [500, 1e9] }),
    run('20260302T000000Z', 'cold', 5000, { pytorch: [3000, 4e9] }),
    run('20260303T000000Z', 'warm', 1010, { pytorch: [510, 1e9] }),
    run('20260304T000000Z', 'warm', 990, { pytorch: [490, 1e9], aiter: [100, 5e8] }),
    run('20260305T000000Z', 'warm', 1300, { pytorch: [800, 1e9] }, 'failed'),
    run('20260306T000000Z', 'warm', 1400, { pytorch: [505, 2e9], aiter: [100, 5e8] }),
    run('20260307T000000Z', 'warm', null, {}, 'running'),
    run('20260308T000000Z', 'bench', 300, {}),
  ];
  const trends = buildTrends({ runs });

  it('groups by harness (cold, warm, bench, unknown order) and never mixes them', () => {
    expect(trends.harnesses.map((h) => [h.harness, h.stamps])).toEqual([
      ['cold', ['20260302T000000Z']],
      [
        'warm',
        ['20260301T000000Z', '20260303T000000Z', '20260304T000000Z', '20260305T000000Z', '20260306T000000Z'],
      ],
      ['bench', ['20260308T000000Z']],
    ]);
    const warm = trends.harnesses[1]!;
    expect(warm.targets.find((t) => t.target === 'pytorch')!.buildSeconds.points.map((p) => p.value)).toEqual(
      [500, 510, 490, 800, 505],
    );
  });

  it('groups by lane too: a run recorded elsewhere is a trend of its own, after this fleet’s', () => {
    const imported = run('20260307T000000Z', 'warm', 900, { pytorch: [450, 1] }, 'completed', 'nightly-aws');
    const laned = buildTrends({ runs: [...runs, imported] });
    expect(laned.harnesses.map((h) => [h.lane, h.harness, h.stamps.length])).toEqual([
      ['fleet', 'cold', 1],
      ['fleet', 'warm', 5],
      ['fleet', 'bench', 1],
      ['nightly-aws', 'warm', 1],
    ]);
  });

  it('leaves a running run out and a failed run’s makespan out, saying why', () => {
    const warm = trends.harnesses[1]!;
    expect(warm.excluded).toEqual([
      {
        stamp: '20260305T000000Z',
        reason: 'failed: its makespan is not comparable (finished targets still count)',
      },
      { stamp: '20260307T000000Z', reason: 'still running: its figures are partial' },
    ]);
    expect(warm.makespanSeconds.points.map((p) => p.value)).toEqual([1000, 1010, 990, null, 1400]);
  });

  it('flags the regressions: makespan and bytes of the latest warm run, the failed run’s slow pytorch', () => {
    expect(trends.harnesses[1]!.regressions).toEqual([
      {
        stamp: '20260306T000000Z',
        subject: 'makespan',
        metric: 'makespanSeconds',
        unit: 'seconds',
        value: 1400,
        baseline: 1000,
      },
      {
        stamp: '20260306T000000Z',
        subject: 'pytorch',
        metric: 'uploadBytes',
        unit: 'bytes',
        value: 2e9,
        baseline: 1e9,
      },
      {
        stamp: '20260305T000000Z',
        subject: 'pytorch',
        metric: 'buildSeconds',
        unit: 'seconds',
        value: 800,
        baseline: 500,
      },
    ]);
    expect(trends.harnesses[0]!.regressions).toEqual([]);
  });

  it('counts targets of a spec-only run (status unknown) but not pending or failed ones', () => {
    const model = makeModel({
      stamp: 's',
      harness: 'unknown',
      status: 'unknown',
      targets: [
        { target: 'pytorch', node: 'forge', startS: 0, endS: 100, status: 'unknown' },
        { target: 'triton-wheel', node: 'forge', startS: 100, endS: 200, status: 'failed' },
      ],
    });
    const unknown = buildTrends({ runs: [toTrendRun(model)] }).harnesses[0]!;
    expect(unknown.harness).toBe('unknown');
    expect(unknown.targets.map((t) => t.target)).toEqual(['pytorch']);
    expect(unknown.makespanSeconds.points.map((p) => p.value)).toEqual([200]);
  });

  it('plots no figure from a file the run checks flagged: the target’s figures and, with a flagged trace, the makespan', () => {
    const model = makeModel({
      stamp: 's',
      harness: 'warm',
      status: 'completed',
      targets: [
        { target: 'pytorch', node: 'forge', startS: 0, endS: 100, status: 'ok' },
        { target: 'triton-wheel', node: 'forge', startS: 100, endS: 200, status: 'ok' },
      ],
    });
    const clean = toTrendRun(model);
    expect(clean.makespanSeconds).toBe(200);
    const flagged = toTrendRun({
      ...model,
      summary: {
        ...model.summary,
        partial: ['trace-pytorch.json'],
        targets: model.summary.targets.map((t) =>
          t.target === 'pytorch' ? { ...t, partial: ['trace-pytorch.json'] } : t,
        ),
      },
    });
    expect(flagged.makespanSeconds).toBeNull();
    expect(flagged.targets.map((t) => [t.target, t.buildSeconds === null, t.uploadBytes === null])).toEqual([
      ['pytorch', true, true],
      ['triton-wheel', false, false],
    ]);
  });
});
