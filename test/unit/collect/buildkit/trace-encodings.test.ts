import { describe, expect, it } from 'vitest';
import { parseBuildkitTrace, type TargetTrace } from '../../../../src/collect/index.js';
import {
  readRealStubs,
  toJaegerDocument,
  toOtlpDocument,
  toSpanStreamText,
  type SpanStub,
} from './real-trace.js';

// The real trace re-encoded by our generators (real-trace.ts) as Jaeger and OTLP JSON must give the same
// TargetTrace as the stored stream, up to Jaeger's µs time resolution.

function expectSameTrace(actual: TargetTrace, expected: TargetTrace): void {
  const shape = (trace: TargetTrace) => ({
    ...trace,
    startMs: 0,
    endMs: 0,
    buildStartMs: 0,
    buildEndMs: 0,
    totalSeconds: 0,
    buildSeconds: 0,
    steps: trace.steps.map((step) => ({ ...step, startMs: 0, endMs: 0 })),
  });
  expect(shape(actual)).toEqual(shape(expected));
  expect(actual.startMs).toBeCloseTo(expected.startMs, 2);
  expect(actual.buildEndMs).toBeCloseTo(expected.buildEndMs ?? Number.NaN, 2);
  expect(actual.buildSeconds).toBeCloseTo(expected.buildSeconds, 5);
  expect(actual.totalSeconds).toBeCloseTo(expected.totalSeconds, 5);
  actual.steps.forEach((step, index) =>
    expect(step.startMs).toBeCloseTo(expected.steps[index]?.startMs ?? Number.NaN, 2),
  );
}

describe('parseBuildkitTrace accepts the three encodings', () => {
  const stubs = readRealStubs();
  const options = { source: 'trace.json', target: 'test-go' };
  const stream = parseBuildkitTrace(toSpanStreamText(stubs), options);

  it('reads the stream, regenerated from the parsed stubs, like the original file', () => {
    expect(stubs).toHaveLength(73);
    expect(stream.trace.totalSteps).toBe(13);
  });

  it('reads `docker buildx history trace` Jaeger JSON', () => {
    const jaeger = parseBuildkitTrace(JSON.stringify(toJaegerDocument(stubs), null, 2), options);
    expect(jaeger.encoding).toBe('jaeger');
    expect(jaeger.stats).toMatchObject({ lines: 73, records: 73, rejected: 0 });
    expectSameTrace(jaeger.trace, stream.trace);
  });

  it('reads OTLP/JSON (resourceSpans)', () => {
    const otlp = parseBuildkitTrace(JSON.stringify(toOtlpDocument(stubs)), options);
    expect(otlp.encoding).toBe('otlp');
    expect(otlp.stats).toMatchObject({ lines: 73, records: 73, rejected: 0 });
    expectSameTrace(otlp.trace, stream.trace);
  });

  it('reads the span stubs as a JSON array, with string status codes', () => {
    const array = stubs.map((stub) => ({
      ...stub,
      Status: { Code: stub.Status.Code === 2 ? 'Ok' : 'Unset', Description: '' },
    }));
    const result = parseBuildkitTrace(JSON.stringify(array), options);
    expect(result.encoding).toBe('span-stream');
    expect(result.trace).toEqual(stream.trace);
  });
});

describe('status codes: Go SDK (1 Error, 2 Ok) versus OTLP (1 Ok, 2 Error)', () => {
  const failing = '[test-go 1/2] COPY test-go.bats test_helper.bash ./';
  const stubs: SpanStub[] = readRealStubs().map((stub) =>
    stub.Name === failing ? { ...stub, Status: { Code: 1, Description: 'exit code: 1' } } : stub,
  );
  const failedSteps = (trace: TargetTrace) =>
    trace.steps.filter((step) => step.failed === true).map((step) => step.name);

  it.each([
    ['span stream', () => toSpanStreamText(stubs)],
    ['Jaeger', () => JSON.stringify(toJaegerDocument(stubs))],
    ['OTLP', () => JSON.stringify(toOtlpDocument(stubs))],
  ])('%s: only the step with an error status is failed', (_, encode) => {
    expect(failedSteps(parseBuildkitTrace(encode(), { source: 't' }).trace)).toEqual([failing]);
  });

  it('OTLP code 1 (Ok) is not a failure', () => {
    const document = toOtlpDocument(
      readRealStubs().map((stub) => ({ ...stub, Status: { Code: 2, Description: '' } })),
    );
    expect(failedSteps(parseBuildkitTrace(JSON.stringify(document), { source: 't' }).trace)).toEqual([]);
  });
});
