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
});
