import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DataFile } from '../../../src/artifacts/index.js';
import { writeExplainedReport } from '../../../src/commands/write-explained-report.js';
import { renderReportCharts } from '../../../src/report/render-chart-svg.js';
import { createTempDir, type TempDir } from '../../helpers/daemons/index.js';

// `report` draws its charts on a thread from the model as measured, before the run's misses are explained and its
// advice added (explain/write-run-report.ts, docs/startup.md). That is only right while why and advice add no mark
// to a chart: here the charts a report wrote must equal the charts drawn in place from the data.json it wrote, the
// explained and advised model, on the shipped samples (the warm one explained against warm-before).

let temp: TempDir;
beforeEach(() => {
  temp = createTempDir('charts-measured');
});
afterEach(() => temp.remove());

const SAMPLES = ['gfx1201-cold', 'gfx1201-warm-before', 'gfx1201-warm'];

describe('report: charts drawn from the measured model', () => {
  it('equal the charts of the explained and advised model it wrote', { timeout: 60_000 }, async () => {
    for (const sample of SAMPLES)
      cpSync(
        path.resolve(import.meta.dirname, '../../../fixtures/runs', sample),
        path.join(temp.path, sample),
        {
          recursive: true,
        },
      );
    for (const sample of SAMPLES) {
      const dir = path.join(temp.path, sample);
      const { model } = await writeExplainedReport({ dir, root: temp.path });
      const written = JSON.parse(readFileSync(path.join(dir, 'data.json'), 'utf8')) as DataFile;
      expect(written.generatedAtMs).toBe(model.generatedAtMs);
      const drawn = renderReportCharts(written);
      expect(readFileSync(path.join(dir, 'timeline.svg'), 'utf8'), sample).toBe(drawn.timeline);
      expect(readFileSync(path.join(dir, 'targets.svg'), 'utf8'), sample).toBe(drawn.targets);
      // Not a vacuous comparison: the warm run's model carries why and advice the measured one had not.
      if (sample === 'gfx1201-warm') {
        expect(written.summary.why?.against).toBe('gfx1201-warm-before');
        expect(written.summary.targets.some((t) => t.why !== undefined)).toBe(true);
      }
    }
  });
});
