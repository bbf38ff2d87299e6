import { describe, expect, it } from 'vitest';
import { findTraceProblems, PerfettoTraceSchema } from '../../../src/export/index.js';
import { type PerfettoTrace, type TraceEvent } from '../../../src/export/trace-event-schema.js';
import { findPartialOverlaps } from './trace-checks.js';

// The checks must catch what Perfetto's importer rejects or mangles; each case breaks one rule.

const names: TraceEvent[] = [
  { ph: 'M', name: 'process_name', pid: 1, tid: 1, args: { name: 'forge' } },
  { ph: 'M', name: 'thread_name', pid: 1, tid: 10, args: { name: 'pytorch' } },
  { ph: 'M', name: 'thread_name', pid: 1, tid: 11, args: { name: 'triton' } },
];
const slice = (tid: number, ts: number, dur: number, name = 'x'): TraceEvent => ({
  ph: 'X',
  name,
  cat: 'target',
  pid: 1,
  tid,
  ts,
  dur,
  args: {},
});
const flow = (ph: 's' | 'f', tid: number, ts: number, id = 1): TraceEvent =>
  ph === 's'
    ? { ph, name: 'dependency', cat: 'dependency', id, pid: 1, tid, ts }
    : { ph, bp: 'e', name: 'dependency', cat: 'dependency', id, pid: 1, tid, ts };
const trace = (events: TraceEvent[]): PerfettoTrace => ({
  traceEvents: [...names, ...events],
  displayTimeUnit: 'ms',
  otherData: {},
});

describe('findTraceProblems', () => {
  it('accepts nested slices and a flow bound inside slices', () => {
    expect(
      findTraceProblems(
        trace([
          slice(10, 0, 100, 'a'),
          slice(10, 0, 50, 'b'),
          slice(10, 50, 50, 'c'),
          slice(11, 120, 10),
          flow('s', 10, 99),
          flow('f', 11, 120),
        ]),
      ),
    ).toEqual([]);
  });

  it.each([
    [
      'a partial overlap on one thread',
      [slice(10, 0, 100, 'a'), slice(10, 50, 100, 'b')],
      'track 1/10: `b` [50, 150] overlaps `a` [0, 100] without nesting',
    ],
    [
      'a flow with no end',
      [slice(10, 0, 100), flow('s', 10, 10)],
      'flow 1: 1 start(s) and 0 end(s), expected one of each',
    ],
    [
      'a flow that ends before it starts',
      [slice(10, 0, 100), slice(11, 0, 100), flow('s', 10, 50), flow('f', 11, 20)],
      'flow 1: ends (20) before it starts (50)',
    ],
    [
      'a flow end outside any slice on its thread',
      [slice(10, 0, 100), slice(11, 200, 10), flow('s', 10, 50), flow('f', 11, 150)],
      'flow 1: no slice on 1/11 encloses its end at 150',
    ],
    [
      'a flow start at the very end of its slice (already closed)',
      [slice(10, 0, 100), slice(11, 100, 10), flow('s', 10, 100), flow('f', 11, 100)],
      'flow 1: no slice on 1/10 encloses its start at 100',
    ],
    [
      'a tid under two pids',
      [slice(10, 0, 10), { ph: 'X', name: 'y', cat: 'target', pid: 2, tid: 10, ts: 0, dur: 1, args: {} }],
      'tid 10 is used under pid 1 and pid 2; the importer keys threads by tid',
    ],
    ['an unnamed thread', [slice(12, 0, 10)], 'tid 12 has slices but no thread_name'],
    [
      'a counter that switches series',
      [
        { ph: 'C', name: 'cpu', pid: 1, tid: 1, ts: 0, args: { '%': 1 } },
        { ph: 'C', name: 'cpu', pid: 1, tid: 1, ts: 1, args: { value: 2 } },
      ],
      'counter 1/cpu: series changes from % to value',
    ],
  ] as const)('finds %s', (_, events, problem) => {
    expect(findTraceProblems(trace([...events]))).toContain(problem);
  });

  it('the test-side nesting check agrees on the partial overlap', () => {
    expect(findPartialOverlaps([slice(10, 0, 100, 'a'), slice(10, 50, 100, 'b')])).toEqual([
      'tid 10: a@0+100 / b@50+100',
    ]);
    expect(
      findPartialOverlaps([slice(10, 0, 100, 'a'), slice(10, 0, 100, 'b'), slice(10, 100, 5, 'c')]),
    ).toEqual([]);
  });
});

describe('PerfettoTraceSchema', () => {
  const valid = trace([slice(10, 0, 10)]);
  it.each([
    [
      'a counter with two series',
      { ph: 'C', name: 'usage', pid: 1, tid: 1, ts: 0, args: { cpu: 1, mem: 2 } },
      'exactly one series',
    ],
    [
      'a counter with a string value',
      { ph: 'C', name: 'cpu', pid: 1, tid: 1, ts: 0, args: { '%': '5' } },
      'expected number',
    ],
    [
      'a string pid',
      { ph: 'X', name: 'a', cat: 'c', pid: 'forge', tid: 1, ts: 0, dur: 1, args: {} },
      'expected number',
    ],
    [
      'a string flow id',
      { ph: 's', name: 'd', cat: 'd', id: '0x1', pid: 1, tid: 1, ts: 0 },
      'expected number',
    ],
    [
      'a negative timestamp',
      { ph: 'X', name: 'a', cat: 'c', pid: 1, tid: 1, ts: -5, dur: 1, args: {} },
      'expected number to be >=0',
    ],
    [
      'a fractional duration',
      { ph: 'X', name: 'a', cat: 'c', pid: 1, tid: 1, ts: 0, dur: 1.5, args: {} },
      'expected int',
    ],
    ['an X event without dur', { ph: 'X', name: 'a', cat: 'c', pid: 1, tid: 1, ts: 0, args: {} }, 'dur'],
    [
      'a flow end that binds to the next slice',
      { ph: 'f', name: 'd', cat: 'd', id: 1, pid: 1, tid: 1, ts: 0 },
      'bp',
    ],
  ])('rejects %s', (_, event, message) => {
    const result = PerfettoTraceSchema.safeParse({ ...valid, traceEvents: [...valid.traceEvents, event] });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain(message);
  });

  it('accepts the valid trace', () => {
    expect(PerfettoTraceSchema.safeParse(valid).success).toBe(true);
  });
});
