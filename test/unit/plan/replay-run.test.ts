import { describe, expect, it } from 'vitest';
import { createPlan, renderReplay, replayRun, type FleetChanges } from '../../../src/plan/index.js';
import { applyFleetChanges } from '../../../src/plan/fleet-changes.js';
import { toRecordedQueues } from '../../../src/plan/replay-run.js';
import { toReplayCosts } from '../../../src/plan/replay-costs.js';
import { type CostInput } from '../../../src/plan/problem.js';
import { createRunFile, createTrace } from './recorded-run.js';

// anvil: 100 MB/s, speed 1; kiln: 10 MB/s, speed 2. base → wheel; tool alone.
const nodes = [
  { name: 'anvil', builder: 'anvil', linkMbps: 100, speed: 1 },
  { name: 'kiln', builder: 'kiln', linkMbps: 10, speed: 2 },
];
const graph = { targets: ['base', 'tool', 'wheel'], deps: { base: [], tool: [], wheel: ['base'] } };
const targetCosts = new Map<string, CostInput>([
  ['base', { buildSeconds: 500, cacheBytes: 5e8 }],
  ['tool', { buildSeconds: 150, cacheBytes: 4e8 }],
  ['wheel', { buildSeconds: 700, cacheBytes: 3e9 }],
]);
const plan = createPlan({
  graph,
  costs: targetCosts,
  nodes,
  arch: 'gfx1201',
  createdAt: '2026-03-14T09:00:00Z',
});
const recorded = {
  base: { node: 'anvil', startSeconds: 0, finishSeconds: 650 },
  tool: { node: 'kiln', startSeconds: 0, finishSeconds: 120 },
  wheel: { node: 'kiln', startSeconds: 655, finishSeconds: 1180 },
};
// Measured: base 600 s + 1 GB, tool 100 s on kiln (200 s at reference speed) + 0.1 GB, wheel 300 s on kiln + 2 GB,
// each upload at its node's link. Setup is what is left of the record: base 650 − 600 − 10 = 40 s, tool
// 120 − 100 − 10 = 10 s, wheel 525 − 300 − 200 = 25 s.
const traces = new Map([
  ['base', createTrace('base', 600, [4e8, 6e8], 100e6)],
  ['tool', createTrace('tool', 100, [1e8], 10e6)],
  ['wheel', createTrace('wheel', 300, [2e9], 10e6)],
]);
const createdAt = '2026-03-15T00:00:00Z';
const toChanges = (changes: Partial<FleetChanges>): FleetChanges => ({
  links: {},
  speeds: {},
  dropNodes: [],
  addNodes: [],
  ...changes,
});

const fromTraces = { buildFrom: 'trace', bytesFrom: 'trace', setupFrom: 'trace' } as const;

describe('toReplayCosts', () => {
  it('takes build seconds at reference speed and bytes from a warm run’s traces', () => {
    const run = createRunFile({ nodes, targets: recorded });
    const { costs, notes } = toReplayCosts({ run, targets: graph.targets, traces, targetCosts });
    expect(Object.fromEntries(costs)).toEqual({
      base: { ...fromTraces, buildSeconds: 600, cacheBytes: 1e9, setupSeconds: 40 },
      tool: { ...fromTraces, buildSeconds: 200, cacheBytes: 1e8, setupSeconds: 10 },
      wheel: { ...fromTraces, buildSeconds: 600, cacheBytes: 2e9, setupSeconds: 25 },
    });
    expect(notes).toEqual([]);
  });

  it('takes a cold run’s bytes from its traces (its image push), and falls back, per target, when a trace is missing or unsized', () => {
    const cold = createRunFile({ harness: 'cold', mode: 'cold', nodes, targets: recorded });
    const fromCold = toReplayCosts({ run: cold, targets: graph.targets, traces, targetCosts });
    expect(fromCold.costs.get('wheel')).toEqual({
      buildSeconds: 600,
      cacheBytes: 2e9,
      setupSeconds: 25,
      buildFrom: 'trace',
      bytesFrom: 'trace',
      setupFrom: 'trace',
    });
    expect(fromCold.notes).toEqual([]);
    const warm = createRunFile({ nodes, targets: recorded });
    const partial = new Map([
      ['base', createTrace('base', 600, [4e8, null])],
      ['wheel', traces.get('wheel')!],
    ]);
    const fallback = toReplayCosts({ run: warm, targets: graph.targets, traces: partial, targetCosts });
    expect(fallback.costs.get('base')).toMatchObject({
      buildFrom: 'trace',
      bytesFrom: 'target-costs',
      cacheBytes: 5e8,
    });
    expect(fallback.costs.get('tool')).toMatchObject({
      buildFrom: 'target-costs',
      buildSeconds: 150,
      setupFrom: 'none',
      setupSeconds: 0,
    });
    const withSetup = new Map([...targetCosts].map(([name, cost]) => [name, { ...cost, setupSeconds: 7 }]));
    const fromCosts = toReplayCosts({
      run: warm,
      targets: graph.targets,
      traces: partial,
      targetCosts: withSetup,
    });
    expect(fromCosts.costs.get('tool')).toMatchObject({ setupFrom: 'target-costs', setupSeconds: 7 });
    expect(fallback.notes).toEqual([
      'base: 1 of 2 uploads carry no size; bytes from the target costs',
      'tool: no trace file; build seconds from the target costs',
      'tool: no trace file; bytes from the target costs',
    ]);
  });

  it('names every target it has no figure for', () => {
    const run = createRunFile({
      nodes,
      targets: { ...recorded, wheel: { status: 'skipped', node: 'kiln', reason: 'dependency base failed' } },
    });
    expect(() => toReplayCosts({ run, targets: graph.targets, traces, targetCosts: new Map() })).toThrow(
      'cannot replay run 20260314T092000Z: wheel: no measured build seconds (skipped in this run) and no `build wheel` line in the target costs; wheel: no measured bytes (skipped in this run) and no `cache wheel` line in the target costs',
    );
  });
});

describe('replayRun', () => {
  const run = createRunFile({ nodes, targets: recorded });

  it('reports actual, baseline (recorded queues, measured costs), the recorded queues on the changed fleet and the prediction', () => {
    const result = replayRun({
      run,
      plan,
      traces,
      targetCosts,
      changes: toChanges({ links: { kiln: 100 } }),
      createdAt,
    });
    expect(result.recordedQueues).toEqual({ anvil: ['base'], kiln: ['tool', 'wheel'] });
    expect(result.actualMakespanSeconds).toBe(1180);
    // kiln: tool 200/2 + 0.1 GB/10 MB/s + 10 = 120 s; wheel waits for base (600 + 10 + 40 = 650), then
    // 300 + 200 + 25 = 525 s. The run started wheel 5 s after base finished: the model's error is that lag.
    expect(result.baselineMakespanSeconds).toBe(1175);
    // At 100 MB/s wheel's export takes 20 s: 650 + 345.
    expect(result.recordedQueuesOnChangedFleetSeconds).toBe(995);
    // Fresh plan: base and wheel both on kiln (350 + 345), tool on anvil: the chain's lower bound.
    expect(result.predictedMakespanSeconds).toBe(695);
    expect(result.plan.queues).toEqual({ anvil: ['tool'], kiln: ['base', 'wheel'] });
    expect(result.deltaSeconds).toBe(-480);
    expect(result.fleetChanges).toEqual(['kiln link 10 → 100 MB/s']);
    const text = renderReplay(result);
    expect(text).toContain('actual (run.json)');
    expect(text).toMatch(/baseline: recorded queues, recorded fleet +19m35s +model vs actual −5.00s/);
    expect(text).toMatch(/recorded queues, changed fleet +16m35s +−3m00s vs baseline/);
    expect(text).toMatch(/predicted: heft-ls, changed fleet +11m35s +−8m00s \(−40\.9 %\) vs baseline/);
    expect(text).toContain('build seconds from traces for 3 of 3 targets, bytes for 3, setup for 3');
  });

  it('re-plans on a fleet with a node dropped or added, and under another strategy', () => {
    const dropped = replayRun({
      run,
      plan,
      traces,
      targetCosts,
      changes: toChanges({ dropNodes: ['kiln'] }),
      createdAt,
    });
    // Everything on anvil: 650 + 211 + 645.
    expect(dropped.predictedMakespanSeconds).toBe(1506);
    expect(dropped.recordedQueuesOnChangedFleetSeconds).toBeNull();
    expect(dropped.notes).toContain(
      'the recorded queues cannot run on the changed fleet (a dropped node held some), so only the fresh plan is simulated there',
    );
    const added = replayRun({
      run,
      plan,
      traces,
      targetCosts,
      changes: toChanges({ addNodes: [{ name: 'forge', builder: 'forge', linkMbps: 1000, speed: 2 }] }),
      strategy: 'lpt',
      createdAt,
    });
    expect(added.strategy).toBe('lpt');
    expect(added.nodes.map((node) => node.name)).toEqual(['anvil', 'kiln', 'forge']);
    expect(added.recordedQueuesOnChangedFleetSeconds).toBe(1175);
    expect(added.predictedMakespanSeconds).toBeLessThan(added.baselineMakespanSeconds);
  });

  it('orders recorded queues by start and puts targets that never started after them', () => {
    const interrupted = {
      ...recorded,
      wheel: { status: 'skipped' as const, node: 'anvil', reason: 'interrupted' },
    };
    expect(toRecordedQueues(createRunFile({ nodes, targets: interrupted }), plan)).toEqual({
      anvil: ['base', 'wheel'],
      kiln: ['tool'],
    });
  });
});

describe('fleet changes', () => {
  it('applies --link, --speed, --drop-node and --add-node (added first, so they can be edited too)', () => {
    const changes = toChanges({
      links: { kiln: 110 },
      speeds: { anvil: 1.3, forge: 0.5 },
      dropNodes: ['kiln'],
      addNodes: [{ name: 'forge', builder: 'forge', linkMbps: 280, speed: 1 }],
    });
    expect(() => applyFleetChanges(nodes, changes)).toThrow('--link kiln: no node `kiln` in the fleet');
    expect(applyFleetChanges(nodes, { ...changes, links: {} })).toEqual([
      { name: 'anvil', builder: 'anvil', linkMbps: 100, speed: 1.3 },
      { name: 'forge', builder: 'forge', linkMbps: 280, speed: 0.5 },
    ]);
  });

  it('says which edit does not fit the fleet', () => {
    expect(() => applyFleetChanges(nodes, toChanges({ dropNodes: ['anvil', 'kiln'] }))).toThrow(
      '--drop-node: that drops every node of the fleet',
    );
    const kiln = { name: 'kiln', builder: 'kiln', linkMbps: 5, speed: 1 };
    expect(() => applyFleetChanges(nodes, toChanges({ addNodes: [kiln] }))).toThrow(
      /already has a node `kiln`/,
    );
    expect(() => applyFleetChanges(nodes, toChanges({ dropNodes: ['forge'] }))).toThrow(
      '--drop-node forge: no node `forge` in the fleet',
    );
  });
});
