import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../../src/report/build-model.js';
import { buildPlanMarks, buildTimeExtent } from '../../../src/report/build-plan-marks.js';
import { makeRunInputs, T0 } from './make-run-inputs.js';

// The plan's marks on the Gantt: planned makespan and lower bound, with one label when they would overlap.

function modelWith(makespanSeconds: number, lowerBoundSeconds: number): ReturnType<typeof buildReportModel> {
  const inputs = makeRunInputs();
  return buildReportModel({ ...inputs, plan: { ...inputs.plan!, makespanSeconds, lowerBoundSeconds } });
}

describe('buildPlanMarks', () => {
  it('labels both marks when they are far apart on the axis', () => {
    const model = modelWith(560, 300);
    expect(buildPlanMarks(model)).toEqual([
      { xAxis: T0 + 560_000, name: 'planned makespan 9m20s' },
      { xAxis: T0 + 300_000, name: 'lower bound 5m00s' },
    ]);
  });

  it('draws one line with one label when the planned makespan equals the lower bound', () => {
    const model = modelWith(560, 560);
    expect(buildPlanMarks(model)).toEqual([
      { xAxis: T0 + 560_000, name: 'planned makespan = lower bound 9m20s' },
    ]);
  });

  it('puts both figures on the planned line and hides the lower bound label when the marks are close', () => {
    const model = modelWith(560, 540);
    expect(20_000).toBeLessThan(buildTimeExtent(model).spanMs * 0.12);
    expect(buildPlanMarks(model)).toEqual([
      { xAxis: T0 + 560_000, name: 'planned makespan 9m20s · lower bound 9m00s' },
      { xAxis: T0 + 540_000, name: 'lower bound 9m00s', label: { show: false } },
    ]);
  });
});
