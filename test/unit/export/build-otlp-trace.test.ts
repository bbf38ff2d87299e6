import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TargetTrace } from '../../../src/collect/index.js';
import { buildOtlpTrace, OtlpTraceRequestSchema, toOtlpTracesUrl } from '../../../src/export/index.js';
import { makeModel, T0 } from '../diff/make-model.js';

// buildOtlpTrace on hand-built models: the tree, ids, times, status and links, each checked against numbers this
// file writes down (the real Jaeger round trip is test/integration/otlp-jaeger.test.ts).

const band = (
  target: string,
  phase: 'setup' | 'steps' | 'upload' | 'export',
  fromS: number,
  toS: number,
) => ({
  target,
  node: target === 'pytorch' ? 'forge' : 'strix',
  phase,
  startMs: T0 + fromS * 1000,
  endMs: T0 + toS * 1000,
  commands: [],
  bytes: phase === 'upload' ? 1000 : null,
});

const model = makeModel({
  stamp: '20260314T092000Z',
  targets: [
    { target: 'pytorch', node: 'forge', startS: 0, endS: 300 },
    { target: 'triton-wheel', node: 'strix', startS: 310, endS: 400, status: 'failed' },
    { target: 'vllm-wheel', node: 'strix', startS: 0, endS: 0, status: 'skipped' },
  ],
  bands: [
    band('pytorch', 'setup', 0, 10),
    band('pytorch', 'steps', 10, 210),
    band('pytorch', 'upload', 210, 300),
  ],
});
// vllm-wheel was skipped: no build record.
model.summary.targets[2]!.startMs = null;
model.summary.targets[2]!.endMs = null;

/** pytorch's trace on a builder clock 5 s behind: its record starts at T0 − 5 s. */
const SKEW_MS = -5000;
const pytorchTrace: TargetTrace = {
  target: 'pytorch',
  startMs: T0 + SKEW_MS,
  endMs: T0 + 300_000 + SKEW_MS,
  totalSeconds: 300,
  buildStartMs: T0 + 10_000 + SKEW_MS,
  buildEndMs: T0 + 210_000 + SKEW_MS,
  buildSeconds: 200,
  steps: [
    {
      name: '[base] FROM rocm',
      startMs: T0 + 10_000 + SKEW_MS,
      endMs: T0 + 10_000 + SKEW_MS,
      cached: true,
      instruction: undefined,
    },
    {
      name: '[2/2] RUN make',
      startMs: T0 + 10_000.5 + SKEW_MS,
      endMs: T0 + 210_000 + SKEW_MS,
      cached: false,
      instruction: 'RUN make',
    },
  ],
  uploads: [],
  cachedSteps: 1,
  totalSteps: 2,
};
const BUILDKIT = {
  traceId: 'c1103609257796867768c23c7d5372a9',
  spanId: '29f7896e1f956d21',
  name: 'bake pytorch',
};
const traces = new Map([['pytorch', { trace: pytorchTrace, buildkitSpans: [BUILDKIT] }]]);

const built = buildOtlpTrace({ model, traces, serviceVersion: '9.9.9' });
const spans = built.request.resourceSpans[0]!.scopeSpans[0]!.spans;
const named = (name: string) => spans.filter((s) => s.name === name);
const one = (name: string) => {
  const found = named(name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};
const attr = (span: { attributes: { key: string; value: unknown }[] }, key: string) =>
  span.attributes.find((a) => a.key === key)?.value;
const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

describe('buildOtlpTrace', () => {
  it('passes the schema of what is sent', () => {
    expect(OtlpTraceRequestSchema.safeParse(built.request).success).toBe(true);
  });

  it('hashes the trace id from lane and stamp as docs/otlp.md says, and every span id is distinct', () => {
    const expected = createHash('sha256')
      .update('rocm-perf otlp v1\0fleet\x0020260314T092000Z')
      .digest('hex');
    expect(built.traceId).toBe(expected.slice(0, 32));
    expect(spans.every((s) => s.traceId === built.traceId)).toBe(true);
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
    const other = buildOtlpTrace({
      model: { ...model, run: { ...model.run, lane: 'ci' } },
      traces,
      serviceVersion: '9.9.9',
    });
    expect(other.traceId).not.toBe(built.traceId);
    expect(buildOtlpTrace({ model, traces, serviceVersion: '9.9.9' }).request).toEqual(built.request);
  });

  it('builds run → node → target → phase → step, and no span for a target without a record', () => {
    const root = one('BUILD rocm-perf fleet warm');
    expect(root.parentSpanId).toBeUndefined();
    expect(root.kind).toBe(2);
    const forge = one('node forge');
    const strix = one('node strix');
    expect([forge.parentSpanId, strix.parentSpanId]).toEqual([root.spanId, root.spanId]);
    expect(one('pytorch').parentSpanId).toBe(forge.spanId);
    expect(one('triton-wheel').parentSpanId).toBe(strix.spanId);
    expect(named('vllm-wheel')).toEqual([]);
    const steps = one('steps');
    expect([one('setup').parentSpanId, steps.parentSpanId, one('upload').parentSpanId]).toEqual([
      one('pytorch').spanId,
      one('pytorch').spanId,
      one('pytorch').spanId,
    ]);
    expect([one('[base] FROM rocm').parentSpanId, one('RUN make').parentSpanId]).toEqual([
      steps.spanId,
      steps.spanId,
    ]);
    expect(spans).toHaveLength(1 + 2 + 2 + 3 + 2);
    expect(built.spanCount).toBe(spans.length);
  });

  it('times spans in unix ns from data.json, steps moved onto its clock, an instant 1 ns long', () => {
    expect([one('pytorch').startTimeUnixNano, one('pytorch').endTimeUnixNano]).toEqual([
      nanos(T0),
      nanos(T0 + 300_000),
    ]);
    expect([one('node strix').startTimeUnixNano, one('node strix').endTimeUnixNano]).toEqual([
      nanos(T0 + 310_000),
      nanos(T0 + 400_000),
    ]);
    expect(one('RUN make').startTimeUnixNano).toBe('1773480010000500000');
    const cached = one('[base] FROM rocm');
    expect(BigInt(cached.endTimeUnixNano) - BigInt(cached.startTimeUnixNano)).toBe(1n);
    expect(cached.startTimeUnixNano).toBe(nanos(T0 + 10_000));
    expect(attr(cached, 'rocm_perf.step.cached')).toEqual({ boolValue: true });
  });

  it('marks the failed target and the run with error status and the CICD results', () => {
    const triton = one('triton-wheel');
    expect(triton.status).toEqual({ code: 2, message: 'target failed' });
    expect(attr(triton, 'cicd.pipeline.task.run.result')).toEqual({ stringValue: 'failure' });
    expect(one('pytorch').status).toEqual({ code: 0 });
    const root = one('BUILD rocm-perf fleet warm');
    expect(root.status.code).toBe(2);
    expect(attr(root, 'cicd.pipeline.result')).toEqual({ stringValue: 'failure' });
    expect(attr(root, 'error.type')).toEqual({ stringValue: 'target_failed' });
  });

  it('links a target to the BuildKit span its trace starts at; notes the targets without one', () => {
    expect(one('pytorch').links).toEqual([
      {
        traceId: BUILDKIT.traceId,
        spanId: BUILDKIT.spanId,
        attributes: [
          { key: 'rocm_perf.link', value: { stringValue: 'buildkit' } },
          { key: 'rocm_perf.buildkit.span_name', value: { stringValue: 'bake pytorch' } },
        ],
      },
    ]);
    expect(one('triton-wheel').links).toEqual([]);
    expect(built.linkCount).toBe(1);
    expect(built.notes).toEqual([
      '1 target(s) without a build record (pending, skipped or no trace) have no span: vllm-wheel',
      'no trace-<target>.json, so no step spans, for triton-wheel',
      'no BuildKit trace ID recorded for triton-wheel: those target spans have no span link',
    ]);
  });

  it('names the service and the run in resource attributes, and leaves unknown figures out', () => {
    expect(built.request.resourceSpans[0]!.resource.attributes).toEqual([
      { key: 'service.name', value: { stringValue: 'rocm-perf' } },
      { key: 'service.version', value: { stringValue: '9.9.9' } },
      { key: 'cicd.pipeline.name', value: { stringValue: 'rocm-perf fleet warm' } },
      { key: 'cicd.pipeline.run.id', value: { stringValue: '20260314T092000Z' } },
      { key: 'rocm_perf.lane', value: { stringValue: 'fleet' } },
      { key: 'rocm_perf.harness', value: { stringValue: 'warm' } },
      { key: 'rocm_perf.arch', value: { stringValue: 'gfx1201' } },
      { key: 'rocm_perf.stamp', value: { stringValue: '20260314T092000Z' } },
      { key: 'rocm_perf.namespace', value: { stringValue: 'rocm' } },
    ]);
    const root = one('BUILD rocm-perf fleet warm');
    expect(attr(root, 'rocm_perf.planned.makespan_seconds')).toBeUndefined();
    expect(attr(root, 'rocm_perf.strategy')).toBeUndefined();
    expect(attr(one('pytorch'), 'rocm_perf.planned.node')).toBeUndefined();
    expect(attr(root, 'rocm_perf.makespan_seconds')).toEqual({ doubleValue: 400 });
    expect(attr(one('upload'), 'rocm_perf.phase.bytes')).toEqual({ intValue: '1000' });
  });
});

describe('toOtlpTracesUrl', () => {
  it.each([
    ['http://127.0.0.1:4318', 'http://127.0.0.1:4318/v1/traces'],
    ['http://127.0.0.1:4318/', 'http://127.0.0.1:4318/v1/traces'],
    ['https://otel.example:443/v1/traces', 'https://otel.example/v1/traces'],
    ['http://gw:8080/otlp/v1/traces', 'http://gw:8080/otlp/v1/traces'],
    ['http://gw:8080/?tenant=a', 'http://gw:8080/v1/traces?tenant=a'],
  ])('%s → %s', (given, sent) => {
    expect(toOtlpTracesUrl(given)).toBe(sent);
  });
});
