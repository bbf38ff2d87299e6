import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../../src/report/build-model.js';
import { readRunInputs } from '../../../src/run-dir/index.js';
import { renderReportMd } from '../../../src/report/render-report-md.js';
import { measuredWindowMs } from '../../helpers/sample-run-facts.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// The shipped sample runs (real BuildKit on the fleet in a box, recorded after three warm and three cold runs were
// pooled by `costs --from`) carry a banded forecast. The percentile data.json records is checked against a count
// made here: the share of plan.json's 101 forecast percentiles under the makespan measured from the raw trace spans.

const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe.each(['gfx1201-warm', 'gfx1201-cold'])('the forecast of the real %s run', (name) => {
  const dir = path.join(repoRoot, 'fixtures/runs', name);

  it('is banded, and the run landed where an independent count of the planned percentiles puts it', async () => {
    const plan = JSON.parse(readFileSync(path.join(dir, 'plan.json'), 'utf8')) as {
      forecast: { banded: boolean; quantiles: number[]; historyRuns: number };
    };
    expect(plan.forecast.banded).toBe(true);
    expect(plan.forecast.historyRuns).toBeGreaterThanOrEqual(3);
    const [originMs, endMs] = measuredWindowMs(dir);
    const measured = (endMs - originMs) / 1000;
    const under = plan.forecast.quantiles.filter((q) => q <= measured).length;
    const model = buildReportModel(await readRunInputs({ runDir: openRunDir(dir), generatedAtMs: 0 }));
    const percentile = model.summary.forecast!.percentile!;
    // 101 percentiles 0…100: `under` of them lie at or below the makespan, so it lands between under − 1 and under.
    expect(percentile).toBeGreaterThanOrEqual(under - 1 - 1e-9);
    expect(percentile).toBeLessThanOrEqual(under + 1e-9);
    expect(model.summary.forecast!.outside).toBeNull();
    expect(renderReportMd({ model, charts: { timeline: 't.svg', targets: 'g.svg' } })).toContain(
      `the run landed at percentile ${Math.round(percentile)}`,
    );
  });
});
