import { describe, expect, it } from 'vitest';
import type { TargetTrace } from '../../../src/collect/types.js';
import { buildBands } from '../../../src/report/build-bands.js';

const S = 1000;

function trace(overrides: Partial<TargetTrace> = {}): TargetTrace {
  return {
    target: 'triton-wheel',
    startMs: 0,
    endMs: 430 * S,
    totalSeconds: 430,
    buildStartMs: 10 * S,
    buildEndMs: 102 * S,
    buildSeconds: 92,
    steps: [
      {
        name: '[build 1/3] FROM base',
        startMs: 10 * S,
        endMs: 10 * S,
        cached: true,
        instruction: 'FROM base',
      },
      {
        name: '[build 2/3] RUN pip wheel .',
        startMs: 10 * S,
        endMs: 80 * S,
        cached: false,
        instruction: 'RUN pip wheel .',
      },
      {
        name: '[build 3/3] RUN auditwheel repair',
        startMs: 80 * S,
        endMs: 102 * S,
        cached: false,
        instruction: 'RUN auditwheel repair',
      },
    ],
    uploads: [
      {
        startMs: 110 * S,
        endMs: 300 * S,
        method: 'PUT',
        url: 'http://reg:5000/v2/rocm/cache/blobs/uploads/x?digest=a',
        status: 201,
        bytes: 6_400_000_000,
        kind: 'cache',
      },
      {
        startMs: 300 * S,
        endMs: 420 * S,
        method: 'PUT',
        url: 'http://reg:5000/v2/rocm/triton/blobs/uploads/y?digest=b',
        status: 201,
        bytes: null,
        kind: 'image',
      },
      {
        startMs: 420 * S,
        endMs: 421 * S,
        method: 'HEAD',
        url: 'http://reg:5000/v2/rocm/triton/blobs/z',
        status: 200,
        bytes: null,
        kind: 'image',
      },
    ],
    cachedSteps: 1,
    totalSteps: 3,
    ...overrides,
  };
}

describe('buildBands', () => {
  it('cuts the record into setup, steps, upload and export and lists what each covers', () => {
    const bands = buildBands(trace(), 'forge');
    expect(bands.map((b) => [b.phase, b.startMs / S, b.endMs / S])).toEqual([
      ['setup', 0, 10],
      ['steps', 10, 102],
      ['export', 102, 110],
      ['upload', 110, 420],
      ['export', 420, 430],
    ]);
    const steps = bands[1]!;
    expect(steps.commands).toEqual([
      'FROM base (cached)',
      'RUN pip wheel . (1m10s)',
      'RUN auditwheel repair (22.00s)',
    ]);
    const upload = bands[3]!;
    expect(upload.bytes).toBe(6_400_000_000);
    expect(upload.commands).toEqual([
      'PUT 1× cache rocm/cache (6.40 GB)',
      'PUT 1× image rocm/triton (size not recorded)',
    ]);
    expect(bands.every((b) => b.node === 'forge' && b.target === 'triton-wheel')).toBe(true);
  });

  it('lets steps win where an upload overlaps them', () => {
    const bands = buildBands(
      trace({
        uploads: [
          {
            startMs: 90 * S,
            endMs: 120 * S,
            method: 'POST',
            url: '/v2/a/blobs/uploads/',
            status: 202,
            bytes: 5,
            kind: 'image',
          },
        ],
      }),
      'n',
    );
    expect(bands.map((b) => [b.phase, b.startMs / S, b.endMs / S])).toEqual([
      ['setup', 0, 10],
      ['steps', 10, 102],
      ['upload', 102, 120],
      ['export', 120, 430],
    ]);
  });

  it('returns nothing for an empty record', () => {
    expect(buildBands(trace({ startMs: 5, endMs: 5 }), 'n')).toEqual([]);
  });
});
