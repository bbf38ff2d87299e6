import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../../src/report/build-model.js';
import { renderReportMd } from '../../../src/report/render-report-md.js';
import { makeRunFile, makeRunInputs, T0 } from './make-run-inputs.js';

// Bootstrap builds happen before the measured run: the report shows their time apart from the makespan.

describe('bootstrap in the report', () => {
  const bootstrap = [
    { target: 'rocm-base', node: 'strix', startedAtMs: T0 - 300_000, finishedAtMs: T0 - 120_000 },
    { target: 'rocm-dev', node: 'strix', startedAtMs: T0 - 120_000, finishedAtMs: T0 - 30_000 },
  ];

  it('sums the bootstrap builds apart from the makespan, which starts with the measured run', () => {
    const plain = buildReportModel(makeRunInputs());
    const model = buildReportModel(
      makeRunInputs({ run: makeRunFile({ bootstrapped: ['rocm-base', 'rocm-dev'], bootstrap }) }),
    );
    expect(model.summary.bootstrap).toEqual({
      seconds: 270,
      targets: [
        { target: 'rocm-base', node: 'strix', seconds: 180 },
        { target: 'rocm-dev', node: 'strix', seconds: 90 },
      ],
    });
    expect(model.summary.makespanSeconds).toBe(plain.summary.makespanSeconds);
    const md = renderReportMd({ model, charts: { timeline: 'timeline.svg', targets: 'targets.svg' } });
    expect(md).toMatch(
      /Bootstrap before the measured run: 4m ?30s building rocm-base on strix \(3m ?00s\), rocm-dev on strix \(1m ?30s\), warm and pushed, not sampled, and not in the makespan above\./,
    );
  });

  it('says nothing of a bootstrap when none ran, or when an older run.json did not record it', () => {
    for (const run of [makeRunFile(), makeRunFile({ bootstrapped: ['rocm-base'] })]) {
      const model = buildReportModel(makeRunInputs({ run }));
      expect(model.summary.bootstrap).toBeNull();
      const md = renderReportMd({ model, charts: { timeline: 'timeline.svg', targets: 'targets.svg' } });
      expect(md).not.toMatch(/Bootstrap before/);
    }
  });
});
