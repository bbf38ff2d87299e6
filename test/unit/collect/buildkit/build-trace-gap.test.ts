import { describe, expect, it } from 'vitest';
import {
  buildTraceGap,
  parseBuildkitTrace,
  type TargetTrace,
  type TraceUpload,
} from '../../../../src/collect/index.js';
import { readRealTraceText } from './real-trace.js';

const upload = (
  startMs: number,
  endMs: number,
  kind: TraceUpload['kind'],
  bytes: number | null,
): TraceUpload => ({
  startMs,
  endMs,
  kind,
  bytes,
  method: 'PUT',
  url: 'http://reg/v2/x/blobs/uploads/1',
  status: 201,
});

describe('buildTraceGap', () => {
  it('splits the real record into setup before the first step and the tail after the last', () => {
    const { trace } = parseBuildkitTrace(readRealTraceText(), { source: 'bktraces.json' });
    const gap = buildTraceGap(trace);
    // 14:57:39.717700035 → 14:57:42.287748305 and 14:59:09.253431509 → 14:59:09.3441603.
    expect(gap.setupSeconds).toBeCloseTo(2.57004827, 5);
    expect(gap.exportSeconds).toBeCloseTo(0.090728791, 5);
    expect(gap.setupSeconds + trace.buildSeconds + gap.exportSeconds).toBeCloseTo(trace.totalSeconds, 6);
    expect(gap).toMatchObject({ uploadSeconds: 0, unknownSizeUploads: 0 });
  });

  it('counts overlapping uploads once in wall time, and unknown sizes apart from bytes', () => {
    const trace: TargetTrace = {
      target: 't',
      startMs: 0,
      endMs: 100_000,
      totalSeconds: 100,
      buildStartMs: 10_000,
      buildEndMs: 40_000,
      buildSeconds: 30,
      steps: [],
      cachedSteps: 0,
      totalSteps: 0,
      uploads: [
        upload(40_000, 50_000, 'image', 100),
        upload(45_000, 60_000, 'cache', 300),
        upload(70_000, 71_000, 'cache', null),
      ],
    };
    expect(buildTraceGap(trace)).toEqual({
      setupSeconds: 10,
      exportSeconds: 60,
      uploadSeconds: 21,
      uploadSecondsByKind: { image: 10, cache: 16, unknown: 0 },
      uploadBytesByKind: { image: 100, cache: 300, unknown: 0 },
      unknownSizeUploads: 1,
    });
  });
});
