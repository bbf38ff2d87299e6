import { describe, expect, it } from 'vitest';
import { DataFileSchema } from '../../../src/artifacts/index.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { makeRunFile, makeRunInputs, stream, T0 } from './make-run-inputs.js';

describe('buildReportModel', () => {
  it('builds a model the schema accepts, with the figures the summary needs', () => {
    const model = buildReportModel(makeRunInputs());
    expect(DataFileSchema.parse(model)).toEqual(model);
    const { summary } = model;
    expect(summary.harness).toBe('warm');
    expect(summary.namespace).toBe('rocm');
    expect(summary.makespanSeconds).toBe(600);
    expect(summary.plannedMakespanSeconds).toBe(560);
    const triton = summary.targets.find((t) => t.target === 'triton-wheel')!;
    expect(triton).toMatchObject({
      node: 'forge',
      builder: 'forge-builder',
      buildSeconds: 95,
      totalSeconds: 300,
      exportSeconds: 205,
    });
    expect(triton).toMatchObject({
      uploadSeconds: 199,
      uploadBytes: 6_400_000_000,
      plannedStartSeconds: 280,
      plannedFinishSeconds: 560,
    });
    expect(summary.criticalPath.measured).toEqual(['pytorch', 'triton-wheel']);
    expect(summary.criticalPath.planned).toEqual(['pytorch', 'triton-wheel']);
    expect(triton.onCriticalPath).toBe(true);
  });

  it('computes per-node utilisation and idle over the makespan', () => {
    const { summary } = buildReportModel(makeRunInputs());
    const strix = summary.nodes.find((n) => n.node === 'strix')!;
    expect(strix).toMatchObject({
      busySeconds: 200,
      idleSeconds: 400,
      utilisationPct: 33.3,
      cpuMeanPct: 30,
      memPeakPct: 40,
      sampleGaps: 30,
    });
    const forge = summary.nodes.find((n) => n.node === 'forge')!;
    expect(forge).toMatchObject({
      busySeconds: 600,
      idleSeconds: 0,
      utilisationPct: 100,
      targets: ['pytorch', 'triton-wheel'],
    });
  });

  it('splits sccache per node and registry writes by cache vs image', () => {
    const { summary } = buildReportModel(makeRunInputs());
    expect(summary.sccache.total).toEqual({
      hits: 1,
      misses: 1,
      writes: 1,
      bytesRead: 500,
      bytesWritten: 2048,
    });
    expect(summary.sccache.perNode).toEqual({
      forge: { hits: 1, misses: 0, writes: 0, bytesRead: 500, bytesWritten: 0 },
      strix: { hits: 0, misses: 1, writes: 1, bytesRead: 0, bytesWritten: 2048 },
    });
    expect(summary.registry).toEqual({
      cache: { bytesWritten: 6_400_002_841, blobsWritten: 1, manifestsWritten: 1 },
      image: { bytesWritten: 0, blobsWritten: 0, manifestsWritten: 1 },
      writesWithoutSize: 1,
      partial: [],
    });
    expect(summary.warnings.filter((w) => w.level === 'loud')).toEqual([]);
  });

  it('keeps series small and marks a failed scrape as a gap', () => {
    const model = buildReportModel(makeRunInputs({ seriesPoints: 100 }));
    expect(model.series.map((s) => `${s.node}/${s.metric}`)).toEqual([
      'forge/cpu',
      'forge/mem',
      'strix/cpu',
      'strix/mem',
    ]);
    for (const series of model.series) {
      expect(series.points.length).toBeLessThanOrEqual(101);
      expect(series.points.filter(([, v]) => v === null)).toHaveLength(1);
    }
  });

  it('labels a run dir without run.json or plan.json as harness unknown and puts its targets in an unknown lane', () => {
    const model = buildReportModel(makeRunInputs({ run: undefined, plan: undefined }));
    expect(model.run).toMatchObject({
      harness: 'unknown',
      hasRunFile: false,
      hasPlanFile: false,
      status: 'unknown',
    });
    expect(model.summary.harness).toBe('unknown');
    expect(model.summary.targets.every((t) => t.node === 'unknown' && t.plannedStartSeconds === null)).toBe(
      true,
    );
    expect(model.timeline.lanes.map((l) => l.node)).toEqual(['forge', 'strix', 'unknown']);
    expect(model.summary.makespanSeconds).toBe(600);
    expect(model.summary.warnings).toContainEqual(
      expect.objectContaining({ level: 'note', stream: 'run.json' }),
    );
  });

  it('warns loudly about a stream with bytes but no records and one present but empty', () => {
    const inputs = makeRunInputs();
    const model = buildReportModel({
      ...inputs,
      streams: [
        stream('zot.jsonl', { bytes: 5000, lines: 20, records: 0, rejected: 20 }),
        stream('sccache.log', { bytes: 0, lines: 0, records: 0 }),
      ],
    });
    const loud = model.summary.warnings.filter((w) => w.level === 'loud');
    expect(loud.map((w) => w.stream)).toEqual(['sccache.log', 'zot.jsonl']);
    expect(loud[0]!.message).toContain('present but empty');
    expect(loud[1]!.message).toContain('found no records');
    expect(model.summary.streams['zot.jsonl']).toMatchObject({ bytes: 5000, records: 0, rejected: 20 });
  });

  it('flags a cold run that touched the live cache, and a finished target without a trace', () => {
    const inputs = makeRunInputs({
      run: makeRunFile({ harness: 'cold', sccachePrefix: 'rocm/gfx1201-cold' }),
    });
    const model = buildReportModel({
      ...inputs,
      traces: inputs.traces.filter((t) => t.target !== 'aiter-wheel'),
    });
    const loud = model.summary.warnings.filter((w) => w.level === 'loud').map((w) => w.message);
    expect(loud.some((m) => m.includes('cold run touched the cache outside its prefix'))).toBe(true);
    expect(loud.some((m) => m.startsWith('trace-aiter-wheel.json: missing'))).toBe(true);
    expect(model.summary.sccache.total.hits).toBe(0);
    expect(model.summary.sccache.outsidePrefix.hits).toBe(1);
  });

  it('draws a running band for a target in flight', () => {
    const inputs = makeRunInputs();
    const run = makeRunFile({ status: 'running', finishedAtMs: null });
    run.targets['triton-wheel'] = { status: 'running', node: 'forge', startedAtMs: T0 + 300_000 };
    const model = buildReportModel({
      ...inputs,
      run,
      traces: inputs.traces.filter((t) => t.target !== 'triton-wheel'),
    });
    const band = model.timeline.bands.find((b) => b.target === 'triton-wheel')!;
    expect(band).toMatchObject({ phase: 'running', startMs: T0 + 300_000, endMs: T0 + 700_000 });
    expect(model.summary.makespanSeconds).toBe(700);
  });
});
