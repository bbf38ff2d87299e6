import { describe, expect, it } from 'vitest';
import { DATA_VERSION } from '../../../src/artifacts/index.js';
import { parseDataFile } from '../../../src/report/page/report-page.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { serialiseModel } from '../../../src/report/write-report.js';
import { makeRunInputs } from './make-run-inputs.js';

// The page's reader (bundled into report-page.js) accepts exactly what `report` writes, and refuses the rest.

describe('the page reader of data.json', () => {
  it('accepts what report writes, after a JSON round trip', () => {
    const model = buildReportModel(makeRunInputs());
    const parsed = parseDataFile(JSON.parse(serialiseModel(model)));
    expect(parsed).toEqual({ model });
  });

  it('refuses another version and names the path of a bad field', () => {
    const model = buildReportModel(makeRunInputs());
    const other = parseDataFile({ ...model, version: DATA_VERSION + 1 });
    expect('error' in other && other.error).toMatch(new RegExp(`version ${DATA_VERSION + 1}\\).*version`));
    const broken = parseDataFile({ ...model, summary: { ...model.summary, makespanSeconds: 'soon' } });
    expect('error' in broken && broken.error).toContain('summary.makespanSeconds');
  });

  // The points are checked in one loop (findBadPoint), not a zod tuple each: still refused, never drawn as 0.
  it.each<[string, unknown]>([
    ['a percent that is text', [1773480001000, '90']],
    ['a time that is null', [null, 90]],
    ['a pair cut short', [1773480001000]],
    ['a point that is an object', { t: 1773480001000, v: 90 }],
  ])('refuses a series point with %s, naming the series and the index', (_, point) => {
    const model = buildReportModel(makeRunInputs());
    const json = JSON.parse(serialiseModel(model)) as { series: { points: unknown[] }[] };
    json.series[1]!.points[2] = point;
    const parsed = parseDataFile(json);
    expect('error' in parsed && parsed.error).toContain(
      `series.1.points: [2]: expected [epoch ms, percent | null], got ${JSON.stringify(point)}`,
    );
  });

  it('refuses points that are not a list', () => {
    const model = buildReportModel(makeRunInputs());
    const parsed = parseDataFile({ ...model, series: [{ ...model.series[0]!, points: 'none' }] });
    expect('error' in parsed && parsed.error).toContain(
      'series.0.points: expected an array of [epoch ms, percent | null] points, got string',
    );
  });
});
