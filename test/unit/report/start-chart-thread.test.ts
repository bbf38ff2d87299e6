import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DataFile } from '../../../src/artifacts/index.js';
import { renderReportCharts } from '../../../src/report/render-chart-svg.js';
import { startChartThread } from '../../../src/report/start-chart-thread.js';

// report's chart thread (start-chart-thread.ts) draws what the same renderer draws in place, and a thread that is
// gone leaves the drawing to the caller's thread: the report never depends on it.

const readModel = (sample: string) =>
  JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '../../../fixtures/runs', sample, 'data.json'), 'utf8'),
  ) as DataFile;

describe('startChartThread', () => {
  it(
    'draws on its thread the SVGs drawn in place, one model after another',
    { timeout: 60_000 },
    async () => {
      const thread = startChartThread();
      try {
        for (const sample of ['gfx1201-cold', 'gfx1201-warm']) {
          const model = readModel(sample);
          expect(await thread.render(model), sample).toEqual(renderReportCharts(model));
        }
        expect(thread.counts()).toEqual({ onThread: 2, here: 0 });
      } finally {
        await thread.close();
      }
    },
  );

  it('draws in place when its thread has ended', { timeout: 60_000 }, async () => {
    const thread = startChartThread();
    await thread.close();
    const model = readModel('gfx1201-warm');
    expect(await thread.render(model)).toEqual(renderReportCharts(model));
    expect(thread.counts()).toEqual({ onThread: 0, here: 1 });
  });
});
