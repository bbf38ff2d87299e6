import {
  type DataFile,
  type Plan,
  PlanFileSchema,
  type RunFile,
  RunFileSchema,
} from '../../../src/artifacts/index.js';
import { buildRunDrag, type DiffSide } from '../../../src/diff/index.js';
import { makeModel, T0 } from './make-model.js';

// A run as the three files the makespan explanation reads (run.json, plan.json, data.json), built from a
// timeline written out by hand in the test: every start and finish is given, none is computed here, so the
// explainer's replays are checked against arithmetic done independently of them.

export interface TimedTarget {
  target: string;
  node: string;
  waitFor?: string[];
  /** Seconds after the measured start. */
  startS: number;
  finishS: number;
  buildS: number;
  uploadS: number;
  bytes: number;
}

export interface RunSideSpec {
  stamp: string;
  nodes: { name: string; speed: number; linkMbps: number }[];
  targets: TimedTarget[];
}

export interface RunSide extends DiffSide {
  model: DataFile;
  runFile: RunFile;
  plan: Plan;
}

function toRunFile(spec: RunSideSpec): RunFile {
  const finish = Math.max(...spec.targets.map((t) => t.finishS));
  return RunFileSchema.parse({
    version: 1,
    stamp: spec.stamp,
    harness: 'warm',
    namespace: 'rocm',
    arch: 'gfx1201',
    sccachePrefix: 'rocm/gfx1201',
    liveSccachePrefix: 'rocm/gfx1201',
    fleetPath: 'fleet.yaml',
    status: 'completed',
    startedAtMs: T0 - 5000,
    measuredStartedAtMs: T0,
    finishedAtMs: T0 + finish * 1000,
    exitCode: 0,
    nodes: spec.nodes.map((n) => ({ name: n.name, builder: n.name, linkMbps: n.linkMbps, speed: n.speed })),
    targets: Object.fromEntries(
      spec.targets.map((t) => [
        t.target,
        {
          status: 'ok',
          node: t.node,
          startedAtMs: T0 + t.startS * 1000,
          finishedAtMs: T0 + t.finishS * 1000,
        },
      ]),
    ),
    bootstrapped: [],
    registryCachePatterns: [],
    registryLogFormat: 'zot',
    warnings: [],
  });
}

function toPlan(spec: RunSideSpec): Plan {
  const queues: Record<string, string[]> = {};
  for (const t of [...spec.targets].sort((x, y) => x.startS - y.startS))
    (queues[t.node] ??= []).push(t.target);
  const finish = Math.max(...spec.targets.map((t) => t.finishS));
  return PlanFileSchema.parse({
    version: 1,
    strategy: 'heft-ls',
    arch: 'gfx1201',
    createdAt: '2026-03-14T09:00:00.000Z',
    makespanSeconds: finish,
    lowerBoundSeconds: finish,
    gap: 0,
    lowerBound: { pathSeconds: finish, loadSeconds: 0, windowSeconds: 0, targetSeconds: 0, path: [] },
    queues,
    targets: Object.fromEntries(
      spec.targets.map((t) => [
        t.target,
        {
          node: t.node,
          startSeconds: t.startS,
          finishSeconds: t.finishS,
          buildSeconds: t.buildS,
          exportSeconds: t.uploadS,
          deps: t.waitFor ?? [],
          waitFor: t.waitFor ?? [],
        },
      ]),
    ),
    criticalPath: [],
    nodes: spec.nodes.map((n) => ({
      name: n.name,
      builder: n.name,
      linkMbps: n.linkMbps,
      speed: n.speed,
      busySeconds: 0,
      idleSeconds: 0,
      dependencyWaitSeconds: 0,
      placementLossSeconds: 0,
    })),
  });
}

export function makeRunSide(spec: RunSideSpec): RunSide {
  const model = makeModel({
    stamp: spec.stamp,
    targets: spec.targets.map((t) => ({
      target: t.target,
      node: t.node,
      startS: t.startS,
      endS: t.finishS,
      buildS: t.buildS,
      uploadS: t.uploadS,
      bytes: t.bytes,
    })),
  });
  // data.json's makespan runs from the measured start (T0), as `report` writes it.
  model.summary.makespanSeconds = Math.max(...spec.targets.map((t) => t.finishS));
  const [runFile, plan] = [toRunFile(spec), toPlan(spec)];
  // The critical path with drag, as `rocm-perf diff` passes it (the explanation names B's path).
  return { model, runFile, plan, drag: buildRunDrag({ runFile, plan }).drag };
}
