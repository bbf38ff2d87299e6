import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunModel } from '../../../src/report/index.js';
import { buildPerfettoTrace, findTraceProblems, PerfettoTraceSchema } from '../../../src/export/index.js';
import { type CompleteEvent, type PerfettoTrace } from '../../../src/export/trace-event-schema.js';
import { FIXTURE_RUNS, FIXTURE_RUNS_DIR } from '../../../scripts/make-fixture-run.js';
import { makeModel, T0 } from '../diff/make-model.js';
import { enclosingSlice, findPartialOverlaps, flowPairs } from './trace-checks.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

const band = (
  target: string,
  node: string,
  phase: 'setup' | 'steps' | 'upload' | 'export',
  fromS: number,
  toS: number,
) => ({
  target,
  node,
  phase,
  startMs: T0 + fromS * 1000,
  endMs: T0 + toS * 1000,
  commands: phase === 'steps' ? ['RUN make (1m00s)'] : [],
  bytes: phase === 'upload' ? 1000 : null,
});

const model = makeModel({
  stamp: '20260314T092000Z',
  targets: [
    { target: 'pytorch', node: 'forge', startS: 0, endS: 300, buildS: 200, bytes: 1000 },
    { target: 'triton-wheel', node: 'strix', startS: 310, endS: 400 },
    { target: 'aiter-wheel', node: 'forge', startS: 300.5, endS: 500 },
  ],
  criticalPath: ['pytorch', 'aiter-wheel'],
  bands: [
    band('pytorch', 'forge', 'setup', 0, 10),
    band('pytorch', 'forge', 'steps', 10, 210),
    band('pytorch', 'forge', 'upload', 210, 300),
    band('triton-wheel', 'strix', 'steps', 310, 400),
  ],
  series: [
    {
      node: 'forge',
      builder: 'forge-builder',
      metric: 'cpu',
      points: [
        [T0 - 2000, 5],
        [T0, 90.04],
        [T0 + 1000, null],
        [T0 + 2000, 80],
      ],
    },
    { node: 'forge', builder: 'forge-builder', metric: 'mem', points: [[T0, 40]] },
  ],
  planned: [
    { target: 'pytorch', node: 'forge', startMs: T0, endMs: T0 + 280_000 },
    { target: 'aiter-wheel', node: 'forge', startMs: T0 + 200_000, endMs: T0 + 480_000 },
  ],
});
const deps = { 'triton-wheel': ['pytorch'], 'aiter-wheel': ['pytorch'], pytorch: [] };

describe('buildPerfettoTrace on a hand-built model', () => {
  const { trace, notes } = buildPerfettoTrace({ model, deps });

  it('names a process per node (numeric pids, lane order) and a thread per target', () => {
    const names = trace.traceEvents
      .filter((e) => e.ph === 'M' && (e.name === 'process_name' || e.name === 'thread_name'))
      .map((e) => [e.name, e.pid, e.tid, e.args.name]);
    expect(names).toEqual([
      ['process_name', 1, 1, 'forge (forge-builder)'],
      ['process_name', 2, 2, 'strix (strix-builder)'],
      ['thread_name', 1, 1000, 'pytorch'],
      ['thread_name', 1, 1001, 'aiter-wheel'],
      ['thread_name', 2, 1002, 'triton-wheel'],
      ['process_name', 3, 3, 'plan'],
      ['thread_name', 3, 1003, 'plan: forge'],
      ['thread_name', 3, 1004, 'plan: forge #2'],
    ]);
  });

  it('puts each target’s record on its thread with its phase bands nested inside, in µs from the earliest sample', () => {
    const onPytorch = trace.traceEvents
      .filter((e): e is CompleteEvent => e.ph === 'X' && e.tid === 1000)
      .map((e) => [e.name, e.cat, e.ts, e.dur]);
    expect(onPytorch).toEqual([
      ['pytorch', 'target', 2_000_000, 300_000_000],
      ['setup', 'phase', 2_000_000, 10_000_000],
      ['steps', 'phase', 12_000_000, 200_000_000],
      ['upload', 'phase', 212_000_000, 90_000_000],
    ]);
    const record = trace.traceEvents.find(
      (e) => e.ph === 'X' && e.name === 'pytorch' && e.cat === 'target',
    ) as CompleteEvent;
    expect(record.args).toMatchObject({
      node: 'forge',
      status: 'ok',
      buildSeconds: 200,
      totalSeconds: 300,
      uploadBytes: 1000,
      onCriticalPath: true,
    });
    expect(trace.otherData).toMatchObject({
      originMs: T0 - 2000,
      stamp: '20260314T092000Z',
      harness: 'warm',
    });
  });

  it('writes one single-series counter per metric and node, skipping gaps', () => {
    const counters = trace.traceEvents.filter((e) => e.ph === 'C').map((e) => [e.name, e.pid, e.ts, e.args]);
    expect(counters).toEqual([
      ['cpu', 1, 0, { '%': 5 }],
      ['cpu', 1, 2_000_000, { '%': 90 }],
      ['mem', 1, 2_000_000, { '%': 40 }],
      ['cpu', 1, 4_000_000, { '%': 80 }],
    ]);
  });

  it('draws a flow from the end of each dependency’s record to the start of its dependent’s, bound to slices', () => {
    const pairs = flowPairs(trace);
    expect(pairs.map((p) => [p.id, p.start.tid, p.start.ts, p.end?.tid, p.end?.ts])).toEqual([
      [1, 1000, 301_999_999, 1001, 302_500_000],
      [2, 1000, 301_999_999, 1002, 312_000_000],
    ]);
    for (const { start, end } of pairs) {
      expect(end).toMatchObject({ ph: 'f', bp: 'e', name: start.name, cat: 'dependency' });
      expect(enclosingSlice(trace, start)?.name).toBe('upload');
      expect(enclosingSlice(trace, end!)?.cat).toBe('target');
    }
    expect(notes).toEqual([]);
  });

  it('packs overlapping planned slices of one node onto a second plan lane', () => {
    const plan = trace.traceEvents
      .filter((e) => e.ph === 'X' && e.cat === 'plan')
      .map((e) => [e.name, e.tid]);
    expect(plan).toEqual([
      ['pytorch', 1003],
      ['aiter-wheel', 1004],
    ]);
  });

  it('is sorted: metadata first, then by time, parents before children', () => {
    const kinds = trace.traceEvents.map((e) => e.ph);
    expect(kinds.lastIndexOf('M')).toBeLessThan(kinds.indexOf('X'));
    const times = trace.traceEvents.flatMap((e) => (e.ph === 'M' ? [] : [e.ts]));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(PerfettoTraceSchema.parse(trace)).toEqual(trace);
    expect(findTraceProblems(trace)).toEqual([]);
  });

  it('skips an arrow to a target that started before its dependency finished, and says so', () => {
    const { trace: t2, notes: n2 } = buildPerfettoTrace({ model, deps: { pytorch: ['triton-wheel'] } });
    expect(t2.traceEvents.filter((e) => e.ph === 's')).toEqual([]);
    expect(n2).toEqual([
      'no arrow triton-wheel → pytorch: pytorch started before triton-wheel finished, or a record has no duration',
    ]);
  });

  it('ends a running target’s record at the timeline’s end', () => {
    const live = makeModel({
      stamp: 'live',
      status: 'running',
      targets: [
        { target: 'pytorch', node: 'forge', startS: 0, endS: 80, status: 'running' },
        { target: 'triton-wheel', node: 'forge', startS: 0, endS: 50 },
      ],
    });
    expect([live.summary.targets[0]!.endMs, live.timeline.endMs]).toEqual([null, T0 + 80_000]);
    const record = buildPerfettoTrace({ model: live }).trace.traceEvents.find(
      (e) => e.ph === 'X' && e.name === 'pytorch',
    ) as CompleteEvent;
    expect([record.ts, record.dur, record.args.status]).toEqual([0, 80_000_000, 'running']);
  });
});

describe.each(Object.keys(FIXTURE_RUNS))('Perfetto export of fixture run %s', (name) => {
  it('follows the Trace Event Format: schema, sorted, nested slices, paired flows inside slices', async () => {
    const loaded = await loadRunModel({
      runDir: openRunDir(path.join(FIXTURE_RUNS_DIR, name)),
      nowMs: Date.UTC(2026, 2, 14),
    });
    const deps = loaded.plan
      ? Object.fromEntries(Object.entries(loaded.plan.targets).map(([t, p]) => [t, p.deps]))
      : undefined;
    const { trace } = buildPerfettoTrace({ model: loaded.model, deps });
    const parsed: PerfettoTrace = PerfettoTraceSchema.parse(JSON.parse(JSON.stringify(trace)));
    expect(findTraceProblems(parsed)).toEqual([]);
    expect(findPartialOverlaps(parsed.traceEvents)).toEqual([]);
    const targets = loaded.model.summary.targets.filter((t) => t.startMs !== null);
    expect(parsed.traceEvents.filter((e) => e.ph === 'X' && e.cat === 'target')).toHaveLength(targets.length);
    expect(
      new Set(
        parsed.traceEvents
          .filter((e) => e.ph === 'C')
          .map((e) => `${e.pid}:${e.name}:${Object.keys(e.args).join()}`),
      ).size,
    ).toBe(loaded.model.series.length);
    const pairs = flowPairs(parsed);
    const expectedFlows = deps ? Object.values(deps).reduce((n, list) => n + list.length, 0) : 0;
    expect(pairs).toHaveLength(expectedFlows);
    for (const { start, end } of pairs) {
      expect(end).toBeDefined();
      expect(start.ts).toBeLessThanOrEqual(end!.ts);
      expect(enclosingSlice(parsed, start)).toBeDefined();
      expect(enclosingSlice(parsed, end!)).toBeDefined();
    }
  });
});
