import { describe, expect, it } from 'vitest';
import { buildPlanNotes } from '../../../src/report/build-plan-notes.js';
import type { RunFile } from '../../../src/artifacts/index.js';
import type { ReportPlan } from '../../../src/report/run-inputs.js';
import { makeRunFile } from './make-run-inputs.js';

// Next to the plan: a warm run planned without warm figures, and a measured makespan under the lower bound, why.

const targets = {
  a: { node: 'n', startSeconds: 0, finishSeconds: 1, deps: [] },
  b: { node: 'n', startSeconds: 1, finishSeconds: 2, deps: [] },
};
const plan = (costs: ReportPlan['costs']): ReportPlan => ({
  strategy: 'heft',
  makespanSeconds: 52,
  lowerBoundSeconds: 52,
  criticalPath: ['a', 'b'],
  targets,
  costs,
});
const ok = (node: string) => ({ status: 'ok' as const, node, startedAtMs: 0, finishedAtMs: 1 });
/** Runs that finished both targets: `costs --from` on them writes their lines. */
const finished = { a: ok('n'), b: ok('n') };
const warmRun = makeRunFile({ harness: 'warm', stamp: '20261203T180845Z', targets: finished });

describe('buildPlanNotes', () => {
  it('a warm run planned with no warm-build figure: says so and explains a makespan under the lower bound', () => {
    const notes = buildPlanNotes({
      run: warmRun,
      plan: plan({ mode: 'warm', coldBuildFor: ['a', 'b'], fullExportFor: [] }),
      makespanSeconds: 16,
      lowerBoundSeconds: 52,
    });
    expect(notes).toEqual([
      'planned without warm figures: no `warm-build` line for any of the 2 targets, so the plan used cold build seconds and every planned figure overstates a warm build; `rocm-perf costs --from 20261203T180845Z` writes `warm-build` lines',
      "measured 16s is under the plan's lower bound 52s, which no schedule can beat on the plan's figures: the plan used cold build figures for a warm run (above)",
    ]);
  });

  it('names the targets a warm plan had no warm figure for', () => {
    const [note] = buildPlanNotes({
      run: warmRun,
      plan: plan({ mode: 'warm', coldBuildFor: ['b'], fullExportFor: [] }),
      makespanSeconds: 60,
      lowerBoundSeconds: 52,
    });
    expect(note).toMatch(
      /^planned partly without warm figures: cold build seconds for 1 of 2 targets \(b: no/,
    );
  });

  it('a warm run planned in cold mode is a cold plan', () => {
    const [note] = buildPlanNotes({
      run: warmRun,
      plan: plan({ mode: 'cold', coldBuildFor: [], fullExportFor: [] }),
      makespanSeconds: 60,
      lowerBoundSeconds: 52,
    });
    expect(note).toMatch(
      /^planned without warm figures: this warm run was planned with cold build seconds for all 2 targets/,
    );
  });

  it('a cold run under its lower bound: the cost figures overstate it', () => {
    const notes = buildPlanNotes({
      run: makeRunFile({ harness: 'cold' }),
      plan: plan({ mode: 'cold', coldBuildFor: [], fullExportFor: [] }),
      makespanSeconds: 40,
      lowerBoundSeconds: 52,
    });
    expect(notes).toEqual([
      expect.stringMatching(
        /^measured 40s is under the plan's lower bound 52s.*: the cost figures overstate this run/,
      ),
    ]);
  });

  it('a cold run planned with whole exports for targets without an image figure: names them', () => {
    const notes = buildPlanNotes({
      run: makeRunFile({ harness: 'cold', stamp: '20261203T170000Z', targets: finished }),
      plan: plan({ mode: 'cold', coldBuildFor: [], fullExportFor: ['b'] }),
      makespanSeconds: 40,
      lowerBoundSeconds: 52,
    });
    expect(notes).toEqual([
      'planned with whole-export bytes: no `image` line for 1 of 2 targets (b), so their planned uploads count the cache export a cold run does not make; `rocm-perf costs --from 20261203T170000Z` writes `image` lines',
      expect.stringMatching(
        /under the plan's lower bound 52s.*: the plan counted whole exports for a cold run \(above\)$/,
      ),
    ]);
    // A warm run's plan counts whole exports by design: no note.
    expect(
      buildPlanNotes({
        run: warmRun,
        plan: plan({ mode: 'warm', coldBuildFor: [], fullExportFor: ['b'] }),
        makespanSeconds: 60,
        lowerBoundSeconds: 52,
      }),
    ).toEqual([]);
  });

  it('an interrupted run: advises `costs --from` on it only for the targets it finished', () => {
    const interrupted = (targets: RunFile['targets']) =>
      makeRunFile({ harness: 'cold', stamp: '20261203T170000Z', status: 'interrupted', targets });
    const cancelled = {
      status: 'interrupted' as const,
      node: 'n',
      startedAtMs: 0,
      finishedAtMs: 1,
      error: 'SIGINT',
    };
    const [none] = buildPlanNotes({
      run: interrupted({ a: cancelled, b: { status: 'skipped', node: 'n', reason: 'interrupted' } }),
      plan: plan({ mode: 'cold', coldBuildFor: [], fullExportFor: ['a', 'b'] }),
      makespanSeconds: null,
      lowerBoundSeconds: 52,
    });
    expect(none).toBe(
      'planned with whole-export bytes: no `image` line for 2 of 2 targets (a, b), so their planned uploads count the cache export a cold run does not make; this run (interrupted) finished none of them, so `costs --from` on it writes none; a cold run that finishes them, then `rocm-perf costs --from` it, writes `image` lines',
    );
    expect(none).not.toContain('costs --from 20261203T170000Z');
    const [some] = buildPlanNotes({
      run: interrupted({ a: ok('n'), b: cancelled }),
      plan: plan({ mode: 'cold', coldBuildFor: [], fullExportFor: ['a', 'b'] }),
      makespanSeconds: null,
      lowerBoundSeconds: 52,
    });
    expect(some).toMatch(
      /; `rocm-perf costs --from 20261203T170000Z` writes `image` lines for the 1 it finished \(a\); for the rest, a cold run that finishes them/,
    );
    const [warm] = buildPlanNotes({
      run: makeRunFile({ harness: 'warm', status: 'interrupted', targets: { a: cancelled, b: cancelled } }),
      plan: plan({ mode: 'warm', coldBuildFor: ['a', 'b'], fullExportFor: [] }),
      makespanSeconds: null,
      lowerBoundSeconds: 52,
    });
    expect(warm).toMatch(
      /finished none of them, so `costs --from` on it writes none; a warm run that finishes them/,
    );
  });

  it('nothing for a warm plan with warm figures and a makespan above the bound, or without a plan', () => {
    expect(
      buildPlanNotes({
        run: warmRun,
        plan: plan({ mode: 'warm', coldBuildFor: [], fullExportFor: [] }),
        makespanSeconds: 60,
        lowerBoundSeconds: 52,
      }),
    ).toEqual([]);
    expect(
      buildPlanNotes({ run: warmRun, plan: undefined, makespanSeconds: 16, lowerBoundSeconds: null }),
    ).toEqual([]);
  });
});
