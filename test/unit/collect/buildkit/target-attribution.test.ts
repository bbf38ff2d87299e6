import { describe, expect, it } from 'vitest';
import { parseBuildkitTrace } from '../../../../src/collect/index.js';
import { cloneSubtree, findStub, readRealStubs, toSpanStreamText, type SpanStub } from './real-trace.js';

// A two-target bake record built from the real one: the client Solve 4e11b66472979a18 and the daemon Solve
// f1bb978313184255 subtree (18 spans) are cloned as a sibling target whose final stage is `test-py`.

const clientSolveId = '4e11b66472979a18';
const bakeRootId = 'd30eea87f2f0241d';

function twoTargetRecord(): SpanStub[] {
  const stubs = readRealStubs();
  const clientSolve = structuredClone(findStub(stubs, clientSolveId));
  clientSolve.SpanContext.SpanID = '4e11b664729799ff';
  const sibling = cloneSubtree({
    stubs,
    rootId: 'f1bb978313184255',
    parentId: clientSolve.SpanContext.SpanID,
    rename: (name) => name.replace('[test-go ', '[test-py '),
    idSuffix: 'ff',
  });
  expect(clientSolve.Parent.SpanID).toBe(bakeRootId);
  return [...stubs, clientSolve, ...sibling];
}

const stepStages = (names: string[]) => [...new Set(names.map((name) => /^\[(\S+)/.exec(name)?.[1] ?? name))];

describe('attributing a shared trace to one target by walking its own Solve subtree', () => {
  const text = toSpanStreamText(twoTargetRecord());

  it("picks the solve whose steps include the target's stage and counts the sibling's spans as skipped", () => {
    const { trace, stats, warnings } = parseBuildkitTrace(text, { source: 't', target: 'test-go' });
    expect(stats).toMatchObject({
      lines: 92,
      records: 74,
      skipped: 18,
      skippedByReason: { 'sibling target': 18 },
    });
    expect(trace.totalSteps).toBe(10);
    expect(trace.steps.map((step) => step.name).filter((name) => name.startsWith('[test-'))).toEqual([
      '[test-base 2/3] COPY --from=bats-assert . .',
      '[test-base 3/3] COPY --from=xx / /',
      '[test-base-fixtures 1/1] COPY fixtures fixtures',
      '[test-go 1/2] COPY test-go.bats test_helper.bash ./',
      '[test-go 2/2] RUN --mount=type=cache,target=/pkg-cache,sharing=locked --mount=type=cache,target=/root/.cache ./test-go.bats',
    ]);
    expect(warnings).toEqual([]);
  });

  it('picks the sibling for its own target name', () => {
    const { trace, stats } = parseBuildkitTrace(text, { source: 't', target: 'test-py' });
    expect(stats).toMatchObject({ records: 74, skipped: 18 });
    expect(stepStages(trace.steps.map((step) => step.name))).toContain('test-py');
    expect(stepStages(trace.steps.map((step) => step.name))).not.toContain('test-go');
  });

  it('uses the Dockerfile stage when the bake target is named differently', () => {
    const { trace } = parseBuildkitTrace(text, { source: 't', target: 'py-wheel', stage: 'test-py' });
    expect(stepStages(trace.steps.map((step) => step.name))).toContain('test-py');
    expect(trace.totalSteps).toBe(10);
  });

  it('warns and counts every solve when no target matches', () => {
    const { trace, stats, warnings } = parseBuildkitTrace(text, { source: 't', target: 'nope' });
    expect(trace.totalSteps).toBe(20);
    expect(stats).toMatchObject({ records: 92, skipped: 0 });
    expect(warnings).toEqual([
      '2 solves in this record and none matched target "nope"; steps and uploads of all of them are counted',
    ]);
  });

  it("takes each target's total from its own daemon Solve, not the shared bake's extent", () => {
    const stubs = twoTargetRecord();
    const seconds = (id: string) => {
      const stub = findStub(stubs, id);
      return (Date.parse(stub.EndTime) - Date.parse(stub.StartTime)) / 1000;
    };
    const goTrace = parseBuildkitTrace(text, { source: 't', target: 'test-go' }).trace;
    const pyTrace = parseBuildkitTrace(text, { source: 't', target: 'test-py' }).trace;
    expect(goTrace.totalSeconds).toBeCloseTo(seconds('f1bb978313184255'), 2);
    expect(pyTrace.totalSeconds).toBeCloseTo(seconds('f1bb9783131842ff'), 2);
    expect(goTrace.totalSeconds).toBeLessThan(seconds(bakeRootId) - 0.5);
  });
});
