// A builder whose clock runs ahead puts its traces later than the bakes really ran. The report moves them back by the
// offset its records imply, so its targets sit where the workstation saw them and the makespan is not stretched.
import { describe, expect, it } from 'vitest';
import { shiftTrace } from '../../../src/collect/index.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { makeRunFile, makeRunInputs, T0 } from './make-run-inputs.js';

const S = 1000;

function skewed(node: string, offsetMs: number) {
  const inputs = makeRunInputs();
  const run = inputs.run!;
  const traces = inputs.traces.map((trace) =>
    run.targets[trace.target]?.node === node ? shiftTrace(trace, -offsetMs) : trace,
  );
  return { ...inputs, traces };
}

describe('traces on a skewed builder clock', () => {
  it('land on the workstation clock: start, end, bands and makespan as if the clock were right', () => {
    const right = buildReportModel(makeRunInputs());
    const model = buildReportModel(skewed('strix', 5000));
    const aiter = model.summary.targets.find((t) => t.target === 'aiter-wheel')!;
    expect([aiter.startMs, aiter.endMs]).toEqual([T0 + 300 * S, T0 + 500 * S]);
    expect(model.summary.makespanSeconds).toBe(right.summary.makespanSeconds);
    expect(model.timeline.bands).toEqual(right.timeline.bands);
    expect(model.summary.warnings).toContainEqual({
      level: 'loud',
      stream: 'run.json',
      message:
        "builder on strix: its build records put its clock 5.00 s ahead of this workstation (±0.00 s), from 1 records; fix its time sync. Its traces are shifted onto this workstation's clock",
    });
  });

  it('a well-synced fleet is left exactly as recorded, with no clock warning', () => {
    const model = buildReportModel(makeRunInputs());
    expect(model.summary.warnings.filter((w) => w.message.includes('clock'))).toEqual([]);
  });

  it('a measured node clock inside what the records allow is the one used', () => {
    const inputs = skewed('strix', 40);
    const run = makeRunFile({
      clocks: [
        {
          host: 'strix',
          role: 'node',
          source: 'node_time_seconds',
          phase: 'before',
          offsetMs: 40,
          uncertaintyMs: 1,
        },
      ],
    });
    const model = buildReportModel({ ...inputs, run });
    const aiter = model.summary.targets.find((t) => t.target === 'aiter-wheel')!;
    expect([aiter.startMs, aiter.endMs]).toEqual([T0 + 300 * S, T0 + 500 * S]);
    expect(model.summary.warnings.filter((w) => w.message.includes('clock'))).toEqual([]);
  });
});
