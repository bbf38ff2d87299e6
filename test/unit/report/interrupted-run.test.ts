// An interrupted run tells the truth: the cancelled target is `interrupted` (not failed), an artifacts.txt that lists
// nothing is said plainly (not as format drift), and the makespan is labelled partial, not compared with the plan.
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../../src/report/build-model.js';
import { renderReportMd } from '../../../src/report/render-report-md.js';
import { makeRunFile, makeRunInputs, stream, T0 } from './make-run-inputs.js';

const S = 1000;

function buildInterruptedModel() {
  const run = makeRunFile({
    status: 'interrupted',
    interruptedBy: 'SIGINT',
    exitCode: 130,
    finishedAtMs: T0 + 420 * S,
  });
  run.targets['triton-wheel'] = {
    status: 'interrupted',
    node: 'forge',
    startedAtMs: T0 + 300 * S,
    finishedAtMs: T0 + 420 * S,
    error: 'cancelled mid-build (cancelled)',
  };
  run.targets['aiter-wheel'] = { status: 'skipped', node: 'strix', reason: 'interrupted' };
  const inputs = makeRunInputs({ run, generatedAtMs: T0 + 500 * S });
  const artifacts = {
    ...stream('artifacts.txt', { bytes: 33, lines: 1, records: 0, skipped: 1 }),
    listsNothing: true,
  };
  return buildReportModel({
    ...inputs,
    artifacts: [],
    traces: inputs.traces.filter((t) => t.target === 'pytorch'),
    streams: [...inputs.streams.filter((one) => one.name !== 'artifacts.txt'), artifacts],
  });
}

describe('an interrupted run', () => {
  const model = buildInterruptedModel();
  const md = renderReportMd({ model, charts: { timeline: 'timeline.svg', targets: 'targets.svg' } });

  it('calls the cancelled target interrupted, with its times, and raises no alarm for what an interrupt explains', () => {
    expect(model.summary.targets.find((t) => t.target === 'triton-wheel')).toMatchObject({
      status: 'interrupted',
      startMs: T0 + 300 * S,
      endMs: T0 + 420 * S,
      totalSeconds: null,
    });
    const loud = model.summary.warnings.filter((w) => w.level === 'loud').map((w) => w.message);
    expect(loud).toEqual([]);
    const notes = model.summary.warnings.map((w) => w.message);
    expect(notes).toContain(
      'artifacts.txt lists nothing: the run was interrupted before anything was published',
    );
    expect(notes.some((m) => m.startsWith('triton-wheel was cancelled by the interrupt'))).toBe(true);
    expect(notes.join('\n')).not.toMatch(/format may have changed|missing for a finished target/);
  });

  it('labels the makespan partial instead of comparing it with the plan', () => {
    expect(md).toContain(
      "Measured 7m00s (partial: the run was interrupted): not comparable with the plan's 9m20s",
    );
    expect(md).not.toMatch(/Measured [^;\n]*; planned/);
  });
});
