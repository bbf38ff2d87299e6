import type { Plan } from '../../src/artifacts/index.js';

// A hand-made plan.json for dispatch tests: every export term 0, node speed 1 unless given, so a target costs its
// planned seconds × (planned node's speed ÷ this node's speed) anywhere.

export interface TestPlanEntry {
  node: string;
  start: number;
  finish: number;
  waitFor?: string[];
}

export function createTestPlan(
  nodes: string[],
  entries: Record<string, TestPlanEntry>,
  speeds: Record<string, number> = {},
): Plan {
  const node = (name: string) => ({
    name,
    builder: `${name}-b`,
    linkMbps: 100,
    speed: speeds[name] ?? 1,
    busySeconds: 0,
    idleSeconds: 0,
    dependencyWaitSeconds: 0,
    placementLossSeconds: 0,
  });
  const queues = Object.fromEntries(
    nodes.map((name) => [
      name,
      Object.entries(entries)
        .filter(([, e]) => e.node === name)
        .sort((a, b) => a[1].start - b[1].start)
        .map(([target]) => target),
    ]),
  );
  const targets = Object.fromEntries(
    Object.entries(entries).map(([target, e]) => [
      target,
      {
        node: e.node,
        startSeconds: e.start,
        finishSeconds: e.finish,
        buildSeconds: e.finish - e.start,
        exportSeconds: 0,
        setupSeconds: 0,
        deps: e.waitFor ?? [],
        waitFor: e.waitFor ?? [],
      },
    ]),
  );
  const makespanSeconds = Math.max(...Object.values(entries).map((e) => e.finish));
  const lowerBound = { pathSeconds: 0, loadSeconds: 0, windowSeconds: 0, targetSeconds: 0, path: [] };
  return {
    version: 1,
    strategy: 'heft-ls',
    arch: 'gfx1201',
    costs: { mode: 'cold', coldBuildFor: [], fullExportFor: [] },
    createdAt: '2026-01-01T00:00:00Z',
    makespanSeconds,
    lowerBoundSeconds: 0,
    gap: 0,
    lowerBound,
    queues,
    targets,
    criticalPath: [],
    nodes: nodes.map(node),
  };
}
