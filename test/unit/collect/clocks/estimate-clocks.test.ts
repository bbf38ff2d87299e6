import { describe, expect, it } from 'vitest';
import type { ClockReading } from '../../../../src/artifacts/index.js';
import {
  averageReadings,
  describeClockProblems,
  estimateBuilderClocks,
  findNodeTimeMs,
  parseDateSeconds,
  shiftTrace,
  toClockOffset,
  type TargetTrace,
} from '../../../../src/collect/index.js';
import { type BuildWindow } from '../../../../src/collect/clocks/estimate-builder-clocks.js';

const reading = (over: Partial<ClockReading>): ClockReading => ({
  host: 'kiln',
  role: 'node',
  source: 'node_time_seconds',
  phase: 'before',
  offsetMs: 0,
  uncertaintyMs: 2,
  ...over,
});

describe('one clock reading', () => {
  it('is the remote time less the midpoint of the round trip, give or take half of it', () => {
    expect(toClockOffset({ sentMs: 1000, receivedMs: 1040, remoteMs: 6020 })).toEqual({
      offsetMs: 5000,
      uncertaintyMs: 20,
    });
    expect(toClockOffset({ sentMs: 1000, receivedMs: 1010, remoteMs: 0 })).toEqual({
      offsetMs: -1005,
      uncertaintyMs: 5,
    });
  });

  it('reads GNU date and node_exporter, and nothing else', () => {
    expect(parseDateSeconds('1796329107.177605802\n')).toBeCloseTo(1796329107177.6, 1);
    expect(parseDateSeconds('1796329107\n')).toBe(1796329107000);
    expect(parseDateSeconds('%s.%N\n')).toBeUndefined(); // busybox date prints the format back
    expect(parseDateSeconds('')).toBeUndefined();
    const text =
      '# HELP node_time_seconds x\n# TYPE node_time_seconds gauge\nnode_time_seconds 1.7963291071776059e+09\n';
    expect(findNodeTimeMs(text)).toBeCloseTo(1796329107177.6, 0);
    expect(findNodeTimeMs('node_load1 0.5\n')).toBeUndefined();
  });

  it('averages a host over before and after, keeping the larger uncertainty; failed readings do not count', () => {
    const averaged = averageReadings([
      reading({ offsetMs: 4900, uncertaintyMs: 3 }),
      reading({ phase: 'after', offsetMs: 5100, uncertaintyMs: 7 }),
      reading({ host: 'forge', offsetMs: null, uncertaintyMs: null, error: 'refused' }),
    ]);
    expect(averaged.get('kiln')).toEqual({ offsetMs: 5000, uncertaintyMs: 7 });
    expect(averaged.has('forge')).toBe(false);
  });

  it('names a clock over 1 s off, a failed reading and a clock stepped during the run; is quiet otherwise', () => {
    expect(
      describeClockProblems([reading({ offsetMs: 999 }), reading({ phase: 'after', offsetMs: 990 })]),
    ).toEqual([]);
    const problems = describeClockProblems([
      reading({ offsetMs: -5000, uncertaintyMs: 12 }),
      reading({ phase: 'after', offsetMs: -2500 }),
      reading({
        host: 'root@10.0.0.1:22',
        role: 'log host',
        source: 'ssh date',
        offsetMs: null,
        uncertaintyMs: null,
        error: 'connection refused',
      }),
    ]);
    expect(problems).toEqual([
      'clock of node kiln is 5.00 s behind this workstation (±0.01 s), by node_time_seconds; fix its time sync (chrony or systemd-timesyncd)',
      'clock of log host root@10.0.0.1:22 not measured before the run (ssh date): connection refused',
      'clock of node kiln moved 2.50 s during the run (from -5.00 s to -2.50 s off this workstation): it was stepped; times from it are uncertain by that much',
    ]);
  });
});

// A bake launched at `at` (workstation) that took `ms`; the builder recorded it from 300 ms after launch to 200 ms
// before exit, on a clock `skew` ahead.
const window = (node: string, at: number, ms: number, skew: number): BuildWindow => ({
  node,
  startedAtMs: at,
  finishedAtMs: at + ms,
  recordStartMs: at + 300 + skew,
  recordEndMs: at + ms - 200 + skew,
});

describe('a builder clock from its records', () => {
  it('keeps 0 when nothing was measured and the records allow it, so a well-synced fleet is never shifted', () => {
    expect(estimateBuilderClocks({ windows: [window('forge', 0, 5000, 0)], nodeOffsets: new Map() })).toEqual(
      [{ node: 'forge', offsetMs: 0, uncertaintyMs: 0, source: 'workstation clock', records: 1 }],
    );
  });

  it('takes the node clock when the records allow it', () => {
    const [clock] = estimateBuilderClocks({
      windows: [window('kiln', 0, 5000, 120), window('kiln', 9000, 2000, 120)],
      nodeOffsets: new Map([['kiln', { offsetMs: 120, uncertaintyMs: 3 }]]),
    });
    expect(clock).toEqual({
      node: 'kiln',
      offsetMs: 120,
      uncertaintyMs: 3,
      source: 'node clock',
      records: 2,
    });
  });

  it('uses the bound the records set when they rule out the node clock: each bake narrows it', () => {
    const windows = [window('kiln', 0, 5000, 5000), window('kiln', 9000, 2000, 5000)];
    const [clock] = estimateBuilderClocks({
      windows,
      nodeOffsets: new Map([['kiln', { offsetMs: 0, uncertaintyMs: 2 }]]),
    });
    // Each record says offset ∈ [5000 − 200, 5000 + 300].
    expect(clock).toEqual({
      node: 'kiln',
      offsetMs: 5050,
      uncertaintyMs: 250,
      source: 'build records',
      records: 2,
    });
    // A bake whose record fills more of its window tightens the bound.
    const tight = {
      ...window('kiln', 20_000, 1000, 5000),
      recordStartMs: 20_000 + 5020,
      recordEndMs: 21_000 + 4990,
    };
    const [narrowed] = estimateBuilderClocks({ windows: [...windows, tight], nodeOffsets: new Map() });
    expect(narrowed).toMatchObject({ offsetMs: 5005, uncertaintyMs: 15, records: 3 });
  });

  it('moves every time in a trace by the offset, and nothing else', () => {
    const trace: TargetTrace = {
      target: 't',
      startMs: 6000,
      endMs: 9000,
      totalSeconds: 3,
      buildStartMs: 6100,
      buildEndMs: 8000,
      buildSeconds: 1.9,
      steps: [{ name: 's', startMs: 6100, endMs: 8000, cached: false, instruction: undefined }],
      uploads: [
        { startMs: 8000, endMs: 8900, method: 'PUT', url: 'u', status: 201, bytes: 10, kind: 'image' },
      ],
      cachedSteps: 0,
      totalSteps: 1,
    };
    const shifted = shiftTrace(trace, 5000);
    expect([shifted.startMs, shifted.endMs, shifted.buildStartMs, shifted.buildEndMs]).toEqual([
      1000, 4000, 1100, 3000,
    ]);
    expect(shifted.steps[0]).toMatchObject({ startMs: 1100, endMs: 3000 });
    expect(shifted.uploads[0]).toMatchObject({ startMs: 3000, endMs: 3900, bytes: 10 });
    expect([shifted.totalSeconds, shifted.buildSeconds]).toEqual([3, 1.9]);
    expect(shiftTrace(trace, 0)).toBe(trace);
  });
});
