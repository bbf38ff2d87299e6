import { describe, expect, it } from 'vitest';
import { buildCalibration, type HarnessTrend, type TrendRun } from '../../../src/trends/build-trends.js';
import { renderCalibration } from '../../../src/trends/render-trends-html.js';

// Forecast calibration across runs: the share of banded, completed runs that finished under their p90.

function run(
  stamp: string,
  percentile: number | null,
  extra: Partial<NonNullable<TrendRun['forecast']>> = {},
): TrendRun {
  return {
    stamp,
    harness: 'cold',
    lane: 'fleet',
    status: 'completed',
    makespanSeconds: 100,
    targets: [],
    forecast: { banded: true, percentile, outside: null, culprits: [], ...extra },
  };
}

describe('buildCalibration', () => {
  it('counts runs under the p90 and gives a verdict only from 10 runs', () => {
    const nine = Array.from({ length: 9 }, (_, k) => run(`r${k}`, k * 10));
    expect(buildCalibration(nine)).toMatchObject({ runs: 9, underP90: 9, verdict: 'too few runs' });
    const ten = [...nine, run('r9', 97)];
    expect(buildCalibration(ten)).toMatchObject({ runs: 10, underP90: 9, share: 0.9, verdict: 'calibrated' });
  });

  it('calls a band that is too often exceeded too narrow, and one never exceeded too wide', () => {
    const narrow = Array.from({ length: 10 }, (_, k) => run(`r${k}`, k < 7 ? 50 : 95));
    expect(buildCalibration(narrow)).toMatchObject({ share: 0.7, verdict: 'band too narrow' });
    const wide = Array.from({ length: 20 }, (_, k) => run(`r${k}`, 50));
    expect(buildCalibration(wide)).toMatchObject({ share: 1, verdict: 'band too wide' });
  });

  it('leaves out runs without a band, without a percentile, or not completed; lists the flagged ones', () => {
    const runs = [
      run('a', 40),
      run('b', 30, { banded: false }),
      run('c', null),
      { ...run('d', 20), status: 'failed' },
      run('e', 100, { outside: 'above', culprits: [{ target: 'triton-wheel' }] }),
    ];
    const calibration = buildCalibration(runs);
    expect(calibration.points.map((p) => p.stamp)).toEqual(['a', 'e']);
    expect(calibration.flagged).toEqual([{ stamp: 'e', outside: 'above', culprits: ['triton-wheel'] }]);
    const html = renderCalibration({ calibration } as HarnessTrend, (stamp) => `/runs/${stamp}/`);
    expect(html).toContain('1 of 2 banded runs (50 %) finished under their forecast p90 (goal 85–95 %)');
    expect(html).toContain('<a href="/runs/e/">e</a>: far above its band, put there by triton-wheel');
  });

  it('never flags a run it does not count: unbanded or unfinished runs far from their draws are not "outside"', () => {
    // The issue: "1 of 1 banded run" above three unbanded runs listed as "far below its band".
    const runs = [
      run('banded', 40),
      run('u1', 0, { banded: false, outside: 'below', culprits: [{ target: 'pytorch' }] }),
      run('u2', 0, { banded: false, outside: 'below' }),
      { ...run('f', 100, { outside: 'above' }), status: 'failed' },
    ];
    const calibration = buildCalibration(runs);
    expect(calibration.runs).toBe(1);
    expect(calibration.flagged).toEqual([]);
    const html = renderCalibration({ calibration } as HarnessTrend, (stamp) => `/runs/${stamp}/`);
    expect(html).toContain('1 of 1 banded run');
    expect(html).not.toContain('far below');
  });
});
