import { describe, expect, it } from 'vitest';
import { DataFileSchema } from '../../../src/artifacts/index.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { readRunInputs } from '../../../src/run-dir/read-run-dir.js';
import { renderReportMd } from '../../../src/report/render-report-md.js';
import { renderSummaryHtml } from '../../../src/report/render-summary-html.js';
import { copyRunWithForecast } from '../../helpers/add-forecast.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// A completed run whose plan carried a forecast: data.json records the band and the percentile the run landed at;
// report.md and the page say it in one sentence.

describe('the forecast in the report', () => {
  it('records the planned band and the percentile, and says both', async () => {
    const dir = copyRunWithForecast('test/fixtures/runs/20260314T092000Z-warm');
    const model = buildReportModel(await readRunInputs({ runDir: openRunDir(dir), generatedAtMs: 1 }));
    DataFileSchema.parse(model);
    const forecast = model.summary.forecast!;
    expect(forecast.banded).toBe(true);
    expect(forecast.planned!.p10).toBeLessThan(forecast.planned!.p90);
    expect(forecast.percentile).not.toBeNull();
    expect(forecast.targets.map((t) => t.target)).toContain('pytorch');
    const md = renderReportMd({ model, charts: { timeline: 'timeline.svg', targets: 'targets.svg' } });
    expect(md).toMatch(
      /Forecast at planning \(1000 draws, fixed queues\): p10 \S+ · p50 \S+ · p90 \S+; the run landed at percentile \d+/,
    );
    expect(renderSummaryHtml(model)).toContain('<p class="forecast">Forecast at planning');
  });

  it('states a thin history instead of a band', async () => {
    const dir = copyRunWithForecast('test/fixtures/runs/20260314T092000Z-warm', { runs: 2 });
    const model = buildReportModel(await readRunInputs({ runDir: openRunDir(dir), generatedAtMs: 1 }));
    const md = renderReportMd({ model, charts: { timeline: 'timeline.svg', targets: 'targets.svg' } });
    expect(md).toMatch(/Forecast: no band — 6 targets had fewer than 3 runs of history \(fewest 2: /);
  });

  it('data.json refuses an unbanded forecast that calls the run outside its band', async () => {
    const dir = copyRunWithForecast('test/fixtures/runs/20260314T092000Z-warm', { runs: 2 });
    const model = buildReportModel(await readRunInputs({ runDir: openRunDir(dir), generatedAtMs: 1 }));
    expect(model.summary.forecast).toMatchObject({ banded: false, outside: null, culprits: [] });
    expect(DataFileSchema.safeParse(model).success).toBe(true);
    const flagged = structuredClone(model);
    flagged.summary.forecast = { ...flagged.summary.forecast!, outside: 'below' };
    const result = DataFileSchema.safeParse(flagged);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['summary', 'forecast', 'outside'] });
    // The same figure on a banded forecast is fine: it is the combination that is refused.
    flagged.summary.forecast = { ...flagged.summary.forecast, banded: true };
    expect(DataFileSchema.safeParse(flagged).success).toBe(true);
  });
});
