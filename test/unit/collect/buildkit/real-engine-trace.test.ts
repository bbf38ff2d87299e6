// `docker buildx history trace` output of real builds (test/fixtures/buildkit-real/README.md): BuildKit v0.32.2 with
// buildx v0.36.1, and the oldest supported pair, BuildKit v0.17.3 with buildx v0.23.0.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBuildkitTrace } from '../../../../src/collect/index.js';

const read = (name: string) =>
  readFileSync(new URL(`../../../fixtures/buildkit-real/${name}`, import.meta.url), 'utf8');

interface JaegerSpan {
  operationName: string;
  startTime: number;
}
const jaegerSpans = (name: string) =>
  (JSON.parse(read(name)) as { data: { spans: JaegerSpan[] }[] }).data.flatMap((trace) => trace.spans);

/** Distinct vertices of a rawjson status stream, by digest: the last name and whether any update said cached. */
function readStatusVertices(name: string): { name: string; cached: boolean }[] {
  const vertices = new Map<string, { name: string; cached: boolean }>();
  for (const line of read(name).split('\n')) {
    if (!line.startsWith('{')) continue;
    const status = JSON.parse(line) as { vertexes?: { digest: string; name: string; cached?: boolean }[] };
    for (const vertex of status.vertexes ?? []) {
      const seen = vertices.get(vertex.digest);
      vertices.set(vertex.digest, {
        name: vertex.name,
        cached: (seen?.cached ?? false) || vertex.cached === true,
      });
    }
  }
  return [...vertices.values()];
}

describe('frontend steps of a real build (BuildKit v0.32.2, bake --push pytorch-wheel)', () => {
  const { trace, warnings } = parseBuildkitTrace(read('trace-push-cache-max.jaeger.json'), {
    source: 'trace-push-cache-max.jaeger.json',
    target: 'pytorch-wheel',
  });

  it('counts the steps the frontend ran under LLBBridge/Solve beside the Control/Solve ones', () => {
    expect(warnings).toEqual([]);
    expect(trace.steps.map((step) => [step.cached ? 'cached' : 'ran', step.name.slice(0, 48)])).toEqual([
      ['ran', '[internal] load build definition from pytorch-wh'],
      ['ran', '[internal] load .dockerignore'],
      ['cached', '[context rocm-base] 127.0.0.1:5999/rocm/rocm-bas'],
      ['ran', '[internal] load build context'],
      ['ran', '[context pytorch] 127.0.0.1:5999/rocm/pytorch:gf'],
      ['ran', '[stage-0 1/4] COPY --from=pytorch /opt/torch /op'],
      ['ran', '[stage-0 2/4] COPY src/wheel.bin /src/wheel.bin'],
      ['ran', '[stage-0 3/4] RUN i=0; while [ $i -lt 100000 ]; '],
    ]);
    expect(trace).toMatchObject({ totalSteps: 8, cachedSteps: 1 });
  });

  it('build runs from the first frontend step to the last step and leaves the export out', () => {
    const spans = jaegerSpans('trace-push-cache-max.jaeger.json');
    const startOf = (name: string) => (spans.find((s) => s.operationName === name)?.startTime ?? NaN) / 1000;
    expect(trace.buildStartMs).toBeCloseTo(
      startOf('[internal] load build definition from pytorch-wheel.Dockerfile'),
      3,
    );
    expect(trace.buildEndMs).toBeLessThan(startOf('exporting to image'));
    expect(trace.buildSeconds).toBeCloseTo(0.2616, 3);
  });

  it('the trace steps are history inspect NumTotalSteps less the vertices that have no step span', () => {
    const record = JSON.parse(read('history-inspect-push-cache-max.json')) as Record<string, number>;
    const buildxOwn = ['[internal] load local bake definitions', 'resolving provenance for metadata file'];
    const vertices = readStatusVertices('rawjson-push-cache-max.jsonl').filter(
      (v) => !buildxOwn.includes(v.name),
    );
    expect([vertices.length, vertices.filter((v) => v.cached).length]).toEqual([
      record.NumTotalSteps,
      record.NumCachedSteps,
    ]);
    const stepNames = new Set(trace.steps.map((step) => step.name));
    expect(vertices.filter((v) => !stepNames.has(v.name)).map((v) => v.name)).toEqual([
      '[context pytorch] load metadata for 127.0.0.1:5999/rocm/pytorch:gfx1201',
      '[context rocm-base] load metadata for 127.0.0.1:5999/rocm/rocm-base:gfx1201',
      'importing cache manifest from 127.0.0.1:5999/rocm/cache:pytorch-wheel-gfx1201',
      'exporting to image',
      'exporting cache to registry',
    ]);
  });

  it('a warm build: cached COPY/RUN vertices without a `load cache:` span are not in the trace', () => {
    const warm = parseBuildkitTrace(read('trace-warm-cached.jaeger.json'), {
      source: 'w',
      target: 'pytorch-wheel',
    });
    const record = JSON.parse(read('history-inspect-warm-cached.json')) as Record<string, number>;
    expect([warm.trace.totalSteps, warm.trace.cachedSteps]).toEqual([4, 1]);
    expect([record.NumTotalSteps, record.NumCachedSteps]).toEqual([13, 3]);
  });
});

describe('a bake whose target: context builds the linked target in the same bake (shared trace)', () => {
  it.each([
    ['trace-two-targets-linked.jaeger.json', 'v0.32.2'],
    ['trace-old-pair-two-targets-linked.jaeger.json', 'v0.17.3'],
  ])('%s (BuildKit %s): each target by the buildx span named after it', (name) => {
    const text = read(name);
    const wheel = parseBuildkitTrace(text, { source: name, target: 'pytorch-wheel' });
    const torch = parseBuildkitTrace(text, { source: name, target: 'pytorch' });
    expect([wheel.warnings, torch.warnings]).toEqual([[], []]);
    expect(wheel.trace.steps.map((step) => step.name)).toContain(
      '[internal] load build definition from pytorch-wheel.Dockerfile',
    );
    expect(torch.trace.steps.map((step) => step.name)).toContain(
      '[internal] load build definition from pytorch.Dockerfile',
    );
    expect(torch.trace.steps.map((step) => step.name)).not.toContain(
      '[internal] load build definition from pytorch-wheel.Dockerfile',
    );
    expect(torch.stats.skipped).toBeGreaterThan(0);
  });

  it("v0.32.2: the linked target's own steps hang under its LLBBridge/Evaluate, not its Control/Solve", () => {
    const { trace } = parseBuildkitTrace(read('trace-two-targets-linked.jaeger.json'), {
      source: 't',
      target: 'pytorch',
    });
    expect(trace.steps.map((step) => step.name.slice(0, 40))).toEqual([
      '[internal] load build definition from py',
      '[internal] load .dockerignore',
      '[context rocm-base] 127.0.0.1:5997/rocm/',
      '[internal] load build context',
      '[1/3] COPY src/pytorch.bin /src/pytorch.',
      '[2/3] RUN i=0; while [ $i -lt 200000 ]; ',
    ]);
  });
});

describe('records of builds that did not finish (BuildKit v0.32.2)', () => {
  it('a failed RUN: the step is marked failed; the frontend steps are there', () => {
    const { trace, warnings } = parseBuildkitTrace(read('trace-failed-run.jaeger.json'), {
      source: 'f',
      target: 'fails',
    });
    expect(warnings).toEqual([]);
    expect(trace.steps.filter((step) => step.failed).map((step) => step.name)).toEqual([
      '[2/3] RUN echo compiling for gfx1201 && exit 3',
    ]);
    expect([trace.totalSteps, trace.cachedSteps]).toEqual([6, 1]);
  });

  it('a build cancelled 12 s into its RUN keeps the partial step in build time', () => {
    const { trace } = parseBuildkitTrace(read('trace-cancelled-run.jaeger.json'), {
      source: 'c',
      target: 'slow',
    });
    const run = trace.steps.find((step) => step.instruction?.startsWith('RUN echo start'));
    expect(((run?.endMs ?? 0) - (run?.startMs ?? 0)) / 1000).toBeCloseTo(12.543, 2);
    expect(trace.buildSeconds).toBeCloseTo(12.715, 2);
    expect([trace.totalSteps, trace.cachedSteps]).toEqual([4, 1]);
  });
});

// Total is the build record as `history inspect` gives it (StartedAt → CompletedAt, `Duration`), not the extent of
// every span: buildx's own `bake`/`build` spans run 13–150 ms (up to 0.37 s on the box) past it, on the client's
// clock. Each pair is one build's `history trace` and `history inspect --format json`.
describe.each([
  ['trace-push-cache-max', 'history-inspect-push-cache-max', 'pytorch-wheel'],
  ['trace-old-pair-push-cache-max', 'history-inspect-old-pair-push-cache-max', 'pytorch-wheel'],
  ['trace-warm-cached', 'history-inspect-warm-cached', 'pytorch-wheel'],
  ['trace-failed-run', 'history-inspect-failed', 'fails'],
  ['trace-cancelled-run', 'history-inspect-cancelled', 'slow'],
  ['trace-two-targets-linked', 'history-inspect-two-targets-wheel', 'pytorch-wheel'],
  ['trace-two-targets-linked', 'history-inspect-two-targets-pytorch', 'pytorch'],
])('%s.jaeger.json against %s.json', (traceName, recordName, target) => {
  const record = JSON.parse(read(`${recordName}.json`)) as {
    StartedAt: string;
    CompletedAt: string;
    Duration: number;
  };
  const { trace } = parseBuildkitTrace(read(`${traceName}.jaeger.json`), { source: traceName, target });
  /** RFC 3339 with nanoseconds → epoch ms with the fraction kept. */
  const toMs = (iso: string) =>
    Date.parse(iso.replace(/\.\d+Z$/, 'Z')) + Number(`0${/\.\d+/.exec(iso)?.[0] ?? ''}`) * 1000;
  const extentSeconds = () => {
    const spans = jaegerSpans(`${traceName}.jaeger.json`) as (JaegerSpan & { duration: number })[];
    const start = Math.min(...spans.map((span) => span.startTime));
    return (Math.max(...spans.map((span) => span.startTime + span.duration)) - start) / 1e6;
  };

  it('total seconds are the record Duration within 1 ms; start and end are StartedAt and CompletedAt', () => {
    expect(Math.abs(trace.totalSeconds - record.Duration / 1e9)).toBeLessThan(0.001);
    expect(Math.abs(trace.startMs - toMs(record.StartedAt))).toBeLessThan(1);
    expect(Math.abs(trace.endMs - toMs(record.CompletedAt))).toBeLessThan(1);
    expect(extentSeconds() - trace.totalSeconds).toBeGreaterThan(0.01);
  });
});
