import {
  type Band,
  DATA_VERSION,
  type DataFile,
  DataFileSchema,
  type Series,
  type TargetSummary,
} from '../../../src/artifacts/index.js';

// A small hand-built data.json model for diff, export and trends tests. Every model goes through DataFileSchema,
// so a test cannot pass on a shape `report` would never write.

export const T0 = 1_773_480_000_000;

interface TargetSpec {
  target: string;
  node: string;
  /** Seconds after T0. */
  startS: number;
  endS: number;
  buildS?: number;
  uploadS?: number;
  bytes?: number;
  status?: TargetSummary['status'];
  /** Input files whose damage leaves this target's figures partial. */
  partial?: string[];
}

export interface ModelSpec {
  stamp: string;
  harness?: DataFile['run']['harness'];
  lane?: string;
  status?: DataFile['run']['status'];
  targets: TargetSpec[];
  criticalPath?: string[];
  bands?: Band[];
  series?: Series[];
  planned?: DataFile['timeline']['planned'];
  /** Trace files whose damage leaves the makespan partial. */
  partial?: string[];
  warnings?: DataFile['summary']['warnings'];
}

const zeroCounts = { hits: 0, misses: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };
const registryCounts = { bytesWritten: 0, blobsWritten: 0, manifestsWritten: 0 };

function toTargetSummary(t: TargetSpec, onPath: boolean): TargetSummary {
  const total = t.endS - t.startS;
  return {
    target: t.target,
    node: t.node,
    builder: `${t.node}-builder`,
    status: t.status ?? 'ok',
    startMs: T0 + t.startS * 1000,
    endMs: t.status === 'running' ? null : T0 + t.endS * 1000,
    buildSeconds: t.buildS ?? total / 2,
    totalSeconds: total,
    exportSeconds: total - (t.buildS ?? total / 2),
    uploadSeconds: t.uploadS ?? 0,
    setupExportSeconds: Math.max(0, total - (t.buildS ?? total / 2) - (t.uploadS ?? 0)),
    uploadBytes: t.bytes ?? 0,
    uploadsWithoutSize: 0,
    cachedSteps: 0,
    totalSteps: 1,
    plannedNode: null,
    plannedStartSeconds: null,
    plannedFinishSeconds: null,
    onCriticalPath: onPath,
    usage: null,
    why: null,
    partial: t.partial ?? [],
  };
}

export function makeModel(spec: ModelSpec): DataFile {
  const path = spec.criticalPath ?? [];
  const ends = spec.targets.map((t) => t.endS);
  const makespan = ends.length ? Math.max(...ends) - Math.min(...spec.targets.map((t) => t.startS)) : null;
  const nodes = [...new Set(spec.targets.map((t) => t.node))];
  const harness = spec.harness ?? 'warm';
  return DataFileSchema.parse({
    version: DATA_VERSION,
    generatedAtMs: T0 + 10_000_000,
    run: {
      stamp: spec.stamp,
      harness,
      lane: spec.lane ?? 'fleet',
      namespace: harness === 'cold' ? 'rocm-coldrun' : 'rocm',
      arch: 'gfx1201',
      status: spec.status ?? 'completed',
      startedAtMs: T0,
      finishedAtMs: null,
      hasRunFile: true,
      hasPlanFile: false,
      strategy: null,
      dispatch: 'fixed',
      artifacts: [],
    },
    summary: {
      harness,
      namespace: null,
      makespanSeconds: makespan,
      plannedMakespanSeconds: null,
      lowerBoundSeconds: null,
      planNotes: [],
      partial: spec.partial ?? [],
      targets: spec.targets.map((t) => toTargetSummary(t, path.includes(t.target))),
      nodes: [],
      sccache: { prefix: null, total: zeroCounts, perNode: {}, outsidePrefix: zeroCounts, partial: [] },
      registry: { cache: registryCounts, image: registryCounts, writesWithoutSize: 0, partial: [] },
      criticalPath: { measured: path, measuredSeconds: path.length ? makespan : null, planned: [] },
      streams: {},
      warnings: spec.warnings ?? [],
    },
    timeline: {
      originMs: T0,
      endMs: T0 + Math.max(0, ...ends) * 1000,
      lanes: nodes.map((node) => ({ node, builder: `${node}-builder` })),
      bands: spec.bands ?? [],
      planned: spec.planned ?? [],
    },
    series: spec.series ?? [],
  });
}
