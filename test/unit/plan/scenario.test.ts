import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPlanInputs, type PlanInputs } from '../../../src/run/plan-inputs/load-plan-inputs.js';
import { createPlan, renderComparison, renderPlan } from '../../../src/plan/index.js';
import { type Plan, STRATEGY_NAMES, type StrategyName } from '../../../src/artifacts/index.js';
import { expectValidPlan } from './plan-invariants.js';

// The shipped gfx1201 scenario (fleet.yaml, .builders/target-costs, the saved bake print).
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const createdAt = '2026-01-01T00:00:00.000Z';

describe('the shipped gfx1201 scenario', () => {
  let inputs: PlanInputs;
  const plans = new Map<StrategyName, Plan>();
  beforeAll(async () => {
    inputs = await loadPlanInputs({ fleetPath: path.join(repoRoot, 'fleet.yaml'), env: {} });
    for (const strategy of STRATEGY_NAMES) {
      plans.set(
        strategy,
        createPlan({
          graph: inputs.graph,
          costs: inputs.costs,
          nodes: inputs.config.nodes,
          strategy,
          arch: 'gfx1201',
          createdAt,
        }),
      );
    }
  });

  it('plans every strategy validly', () => {
    for (const plan of plans.values())
      expectValidPlan(plan, { graph: inputs.graph, costs: inputs.costs, nodes: inputs.config.nodes });
  });

  it('reaches its lower bound, the pytorch → triton-wheel → vllm-wheel chain, with the default', () => {
    const plan = plans.get('heft-ls')!;
    expect(plan.gap).toBe(0);
    expect(plan.makespanSeconds).toBeCloseTo(
      5400 + 12.4e9 / 900e6 + 948 + 6.4e9 / 900e6 + 1500 + 2.4e9 / 900e6,
      6,
    );
    expect(plan.criticalPath).toEqual(['pytorch', 'triton-wheel', 'vllm-wheel']);
    expect(plan.lowerBound.path).toEqual(['pytorch', 'triton-wheel', 'vllm-wheel']);
    expect(plan.targets['triton-wheel']!.node).toBe('strix');
  });

  it('ranks the strategies the way the spec argues: build-only and stages lose', () => {
    const makespan = (name: StrategyName) => plans.get(name)!.makespanSeconds;
    expect(makespan('heft-ls')).toBeLessThanOrEqual(makespan('heft'));
    expect(makespan('build-only')).toBeGreaterThan(makespan('heft-ls') * 1.1);
    expect(makespan('stages')).toBeGreaterThan(makespan('heft-ls') * 1.1);
    expect(makespan('lpt')).toBeGreaterThanOrEqual(makespan('heft-ls'));
  });

  it('build-only sends a large export to the WiFi node', () => {
    const plan = plans.get('build-only')!;
    const onKiln = plan.queues.kiln ?? [];
    expect(onKiln.some((name) => plan.targets[name]!.exportSeconds > 600)).toBe(true);
  });

  it('renders the queues, both cost terms, the bound, the gap and the critical path', () => {
    const text = renderPlan(plans.get('heft-ls')!);
    expect(text).toContain('plan for gfx1201: 13 targets on 5 nodes, strategy heft-ls');
    expect(text).toMatch(/strix — 900 MB\/s, speed 1; busy 2h11m12s, never idle/);
    expect(text).toMatch(/^ +0s +1h30m14s +pytorch +1h30m00s +14s +\*$/m);
    expect(text).toMatch(/makespan +2h11m12s \(7871\.6 s\)/);
    expect(text).toMatch(/lower bound +2h11m12s/);
    expect(text).toContain('gap           0.0 %');
    expect(text).toContain('critical path pytorch → triton-wheel → vllm-wheel');
  });

  it('renders a comparison table with the ratio to the bound', () => {
    const rows = [...plans].map(([strategy, plan]) => ({
      strategy,
      description: 'd',
      makespanSeconds: plan.makespanSeconds,
      lowerBoundSeconds: plan.lowerBoundSeconds,
      planningMs: 1,
    }));
    const text = renderComparison(rows);
    expect(text.split('\n')[0]).toMatch(/^strategy +makespan +÷ lower bound +planning/);
    expect(text).toMatch(/heft-ls +2h11m12s +1\.000 +1\.0 ms/);
  });
});
