import { type Plan, PlanFileSchema, type RunFile, RunFileSchema } from '../../src/artifacts/index.js';
import type { SimRun } from './simulate-run.js';

// run.json and plan.json of a synthetic run, validated by the schemas the harness and the planner write with.

export function renderRunFile(run: SimRun, status: RunFile['status'] = 'completed'): string {
  const file: RunFile = {
    version: 1,
    stamp: run.stamp,
    harness: run.harness,
    namespace: run.namespace,
    arch: 'gfx1201',
    sccachePrefix: run.harness === 'cold' ? `rocm/gfx1201-cold-${run.stamp}` : 'rocm/gfx1201',
    liveSccachePrefix: 'rocm/gfx1201',
    fleetPath: '/etc/rocm-perf/fleet.yaml',
    status,
    startedAtMs: run.startMs - 120_000,
    measuredStartedAtMs: run.startMs,
    finishedAtMs: status === 'running' ? null : run.endMs + 2000,
    exitCode: status === 'running' ? null : 0,
    nodes: run.nodes.map((n) => ({
      name: n.name,
      builder: n.builder,
      address: n.address,
      linkMbps: n.linkMbps,
      speed: 1,
    })),
    targets: Object.fromEntries(
      run.targets.map((t) => [
        t.name,
        { status: 'ok' as const, node: t.node, startedAtMs: t.startMs, finishedAtMs: t.endMs },
      ]),
    ),
    bootstrapped: ['rocm-base'],
    registryCachePatterns: ['*/cache:*'],
    registryLogFormat: 'zot',
    warnings: [],
  };
  return `${JSON.stringify(RunFileSchema.parse(file), null, 2)}\n`;
}

export function renderPlanFile(run: SimRun): string {
  const makespanSeconds = Math.max(...run.targets.map((t) => t.plannedFinishSeconds));
  const path = ['pytorch', run.targets[run.targets.length - 1]!.name];
  const plan: Plan = {
    version: 1,
    strategy: 'heft-ls',
    arch: 'gfx1201',
    costs: { mode: 'cold', coldBuildFor: [], fullExportFor: [] },
    createdAt: new Date(run.startMs - 300_000).toISOString(),
    makespanSeconds,
    lowerBoundSeconds: Math.round(makespanSeconds * 0.85),
    gap: 1 / 0.85 - 1,
    lowerBound: {
      pathSeconds: Math.round(makespanSeconds * 0.85),
      loadSeconds: Math.round(makespanSeconds * 0.7),
      windowSeconds: 0,
      targetSeconds: 0,
      path,
    },
    queues: Object.fromEntries(
      run.nodes.map((n) => [n.name, run.targets.filter((t) => t.node === n.name).map((t) => t.name)]),
    ),
    targets: Object.fromEntries(
      run.targets.map((t) => {
        const steps = t.steps.reduce((sum, s) => sum + (s.endMs - s.startMs), 0) / 1000;
        const span = t.plannedFinishSeconds - t.plannedStartSeconds;
        return [
          t.name,
          {
            node: t.node,
            startSeconds: t.plannedStartSeconds,
            finishSeconds: t.plannedFinishSeconds,
            buildSeconds: Math.min(steps, span),
            exportSeconds: Math.max(0, span - steps),
            setupSeconds: 0,
            deps: t.deps,
            waitFor: t.deps,
          },
        ];
      }),
    ),
    criticalPath: path,
    nodes: run.nodes.map((n) => ({
      name: n.name,
      builder: n.builder,
      linkMbps: n.linkMbps,
      speed: 1,
      busySeconds: 0,
      idleSeconds: 0,
      dependencyWaitSeconds: 0,
      placementLossSeconds: 0,
    })),
  };
  return `${JSON.stringify(PlanFileSchema.parse(plan), null, 2)}\n`;
}
