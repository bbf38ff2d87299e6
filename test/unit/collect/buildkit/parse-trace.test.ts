import { describe, expect, it } from 'vitest';
import { parseBuildkitTrace } from '../../../../src/collect/index.js';
import { ParseError } from '../../../../src/shared/errors.js';
import { readRealTraceText } from './real-trace.js';

// Figures checked by hand against test/fixtures/buildkit/bktraces.json: 73 span objects; the bake root span runs
// 14:57:39.717700035 → 14:59:09.3441603; the daemon's Control/Solve f1bb978313184255 holds 10 step spans
// (2 of them `load cache:`) to 14:59:09.253431509, and the frontend's LLBBridge/Solve beside it 3 more (load build
// definition, the cached `docker/dockerfile:1.5` frontend image, load .dockerignore), the first from
// 14:57:40.402159874: 13 steps, 3 cached.
const utcMs = (iso: string, extraNs: number) => Date.parse(iso) + extraNs / 1e6;

describe('parseBuildkitTrace on the real stored span stream', () => {
  const { trace, stats, warnings, encoding } = parseBuildkitTrace(readRealTraceText(), {
    source: 'bktraces.json',
    target: 'test-go',
  });

  it('reads all 73 spans with nothing rejected or skipped', () => {
    expect(encoding).toBe('span-stream');
    expect(stats).toEqual({
      source: 'bktraces.json',
      bytes: 231836,
      lines: 73,
      records: 73,
      skipped: 0,
      skippedByReason: {},
      rejected: 0,
      rejectedExamples: [],
    });
    expect(warnings).toEqual([]);
  });

  it('lists the target steps in start order, cached ones from `load cache:` spans', () => {
    expect(trace.steps.map((step) => [step.cached ? 'cached' : 'ran', step.name])).toEqual([
      ['ran', '[internal] load build definition from Dockerfile'],
      [
        'cached',
        expect.stringMatching(
          /^docker-image:\/\/\S+\/docker\/dockerfile:1\.5@sha256:39b85bbfa7536a5f/,
        ) as unknown,
      ],
      ['ran', '[internal] load .dockerignore'],
      ['ran', '[internal] load build context'],
      [
        'cached',
        '[build 1/3] FROM docker.io/library/alpine@sha256:51b67269f354137895d43f3b3d810bfacd3945438e94dc5ac55fdac340352f48',
      ],
      ['ran', '[build 2/3] COPY xx-* /out/'],
      [
        'ran',
        '[build 3/3] RUN ln -s xx-cc /out/xx-clang &&     ln -s xx-cc /out/xx-clang++ &&     ln -s xx-cc /out/xx-c++ &&     ln -s xx-apt /out/xx-apt-get',
      ],
      ['ran', '[xx 1/1] COPY --from=build /out/ /usr/bin/'],
      ['cached', '[test-base 2/3] COPY --from=bats-assert . .'],
      ['ran', '[test-base 3/3] COPY --from=xx / /'],
      ['ran', '[test-base-fixtures 1/1] COPY fixtures fixtures'],
      ['ran', '[test-go 1/2] COPY test-go.bats test_helper.bash ./'],
      [
        'ran',
        '[test-go 2/2] RUN --mount=type=cache,target=/pkg-cache,sharing=locked --mount=type=cache,target=/root/.cache ./test-go.bats',
      ],
    ]);
    expect(trace).toMatchObject({ target: 'test-go', totalSteps: 13, cachedSteps: 3, uploads: [] });
  });

  it('keeps the Dockerfile instruction text of each step', () => {
    expect(trace.steps[0]?.instruction).toBeUndefined();
    expect(trace.steps[12]?.instruction).toBe(
      'RUN --mount=type=cache,target=/pkg-cache,sharing=locked --mount=type=cache,target=/root/.cache ./test-go.bats',
    );
    expect(trace.steps[7]?.instruction).toBe('COPY --from=build /out/ /usr/bin/');
  });

  it('tells build (own steps) from total (the build record: the daemon Solve f1bb978313184255, no client spans)', () => {
    expect(trace.startMs).toBeCloseTo(utcMs('2024-01-12T14:57:40.400Z', 118560), 3);
    expect(trace.endMs).toBeCloseTo(utcMs('2024-01-12T14:59:09.342Z', 576396), 3);
    expect(trace.buildStartMs).toBeCloseTo(utcMs('2024-01-12T14:57:40.402Z', 159874), 3);
    expect(trace.buildEndMs).toBeCloseTo(utcMs('2024-01-12T14:59:09.253Z', 431509), 3);
    expect(trace.totalSeconds).toBeCloseTo(88.942457836, 5);
    expect(trace.buildSeconds).toBeCloseTo(88.851271635, 5);
  });

  it('gives the same result without a target name (one solve in the record)', () => {
    expect(parseBuildkitTrace(readRealTraceText(), { source: 'bktraces.json' }).trace).toEqual({
      ...trace,
      target: '',
    });
  });
});

describe('parseBuildkitTrace on damaged or empty input', () => {
  const text = readRealTraceText();

  it.each([
    ['an empty file', '', /bktraces\.json: empty trace/],
    ['whitespace', ' \n', /empty trace/],
    [
      'text that is not JSON',
      'Error: no such build record\n',
      /bktraces\.json:1: not a trace: expected JSON/,
    ],
    ['JSON of another shape', '{"traces":[]}', /not a known trace encoding \(top-level keys: traces\)/],
    ['a number', '42', /not a trace/],
    [
      'a stream whose every object is broken',
      '{"Name": 1}\n{"x": ]}\n',
      /none of the 2 span objects could be read/,
    ],
  ])('throws a ParseError naming the source for %s', (_, input, message) => {
    expect(() => parseBuildkitTrace(input, { source: 'bktraces.json' })).toThrow(ParseError);
    expect(() => parseBuildkitTrace(input, { source: 'bktraces.json' })).toThrow(message);
  });

  it('warns loudly when a valid document holds no spans', () => {
    const result = parseBuildkitTrace('{"data":[{"traceID":"x","spans":[],"processes":{}}]}', {
      source: 't.json',
      target: 'a',
    });
    expect(result.stats).toMatchObject({ lines: 0, records: 0 });
    expect(result.warnings).toEqual([
      "t.json: read 52 bytes in 0 lines but found no records (0 rejected); the producer's format may have changed",
      't.json: the trace holds no spans; build, total and upload figures are missing',
    ]);
    expect(result.trace).toMatchObject({
      totalSeconds: 0,
      buildSeconds: 0,
      buildStartMs: undefined,
      steps: [],
    });
  });

  it('keeps the spans before a truncated end and counts the cut object as rejected', () => {
    const cut = text.slice(0, text.length - 500);
    const { stats, trace } = parseBuildkitTrace(cut, { source: 'cut.json' });
    expect(stats).toMatchObject({ lines: 73, records: 72, rejected: 1 });
    expect(stats.rejectedExamples[0]?.reason).toBe('truncated span object at the end of the stream');
    expect(trace.totalSteps).toBe(13);
  });

  it('rejects one corrupted object in the middle and keeps the rest', () => {
    const corrupted = text.replace(
      '"Name": "moby.buildkit.v1.frontend.LLBBridge/Ping"',
      '"Name": moby.buildkit',
    );
    const { stats } = parseBuildkitTrace(corrupted, { source: 'c.json' });
    expect(stats).toMatchObject({ lines: 73, records: 72, rejected: 1 });
    expect(stats.rejectedExamples[0]).toMatchObject({
      line: 140,
      reason: expect.stringMatching(/^invalid JSON in span object/) as unknown,
    });
  });

  it('counts stray text between span objects as rejected', () => {
    const { stats } = parseBuildkitTrace(`${text}\ngarbage\n`, { source: 'g.json' });
    expect(stats).toMatchObject({ lines: 74, records: 73, rejected: 1 });
  });
});
