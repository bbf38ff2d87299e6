// A cold run clears the cache export (--set *.cache-to=) and pushes only the image, so a cold plan's upload term is
// the image push (`image` lines), not the whole export a normal run makes (`cache` lines). The spec's triton-wheel:
// 15m48s of steps inside a 38m52s record, 23m04s of it uploading mode=max cache. Charged that export, a cold plan
// keeps it off a WiFi node a cold run could use; charged its image, it does not, and the cold run finishes sooner.
import { describe, expect, it } from 'vitest';
import { chooseCostDistributions } from '../../../src/plan/choose-costs.js';
import { chooseCosts, createPlan, describeCostSet, renderPlan } from '../../../src/plan/index.js';
import { simulatePlan } from '../../../src/plan/simulate-plan.js';
import { type CostFigures } from '../../../src/plan/choose-costs.js';
import { type PlanNode } from '../../../src/plan/cost-model.js';

const nodes: PlanNode[] = [
  { name: 'strix', builder: 'strix', linkMbps: 900, speed: 1 },
  { name: 'kiln', builder: 'kiln', linkMbps: 4.3, speed: 1 },
];
const graph = { targets: ['triton-wheel', 'vllm-wheel'], deps: { 'triton-wheel': [], 'vllm-wheel': [] } };
const figures = new Map<string, CostFigures>([
  // 948 s of steps; 6.4 GB whole export; a 0.3 GB image.
  [
    'triton-wheel',
    {
      buildSeconds: 948,
      cacheBytes: 6_400_000_000,
      cacheSpread: { sigma: 0.05, runs: 3 },
      imageBytes: 300_000_000,
      imageSpread: { sigma: 0.02, runs: 4 },
    },
  ],
  // 900 s of steps; 5 GB whole export; a 0.25 GB image.
  ['vllm-wheel', { buildSeconds: 900, cacheBytes: 5_000_000_000, imageBytes: 250_000_000 }],
]);

function planWith(costFigures: ReadonlyMap<string, CostFigures>) {
  const costSet = chooseCosts(costFigures, 'cold');
  return createPlan({
    graph,
    costs: costSet.costs,
    costSet,
    nodes,
    arch: 'gfx1201',
    createdAt: '2026-12-06T00:00:00Z',
  });
}

/** The cold run as it happens: each target uploads its image, whatever the plan assumed. */
function runCold(plan: ReturnType<typeof planWith>) {
  const truth = new Map(
    [...figures].map(([name, figure]) => [
      name,
      { buildSeconds: figure.buildSeconds, cacheBytes: figure.imageBytes },
    ]),
  );
  const waitFor = Object.fromEntries(
    Object.entries(plan.targets).map(([name, entry]) => [name, entry.waitFor]),
  );
  return simulatePlan({ queues: plan.queues, waitFor, costs: truth, nodes });
}

describe('cold plans upload the image, not the whole export', () => {
  const withoutImage = new Map(
    [...figures].map(([name, figure]) => [name, { ...figure, imageBytes: undefined }]),
  );
  const wholeExportPlan = planWith(withoutImage);
  const imagePlan = planWith(figures);

  it('take each target’s image bytes and spread in a cold plan, and the whole export in a warm one', () => {
    const cold = chooseCosts(figures, 'cold');
    expect(cold.costs.get('triton-wheel')?.cacheBytes).toBe(300_000_000);
    expect(cold.fullExportFor).toEqual([]);
    expect(chooseCosts(figures, 'warm').costs.get('triton-wheel')?.cacheBytes).toBe(6_400_000_000);
    const drawn = chooseCostDistributions(figures, 'cold').get('triton-wheel');
    expect(drawn).toMatchObject({ cacheBytes: 300_000_000, cacheSigma: 0.02, cacheRuns: 4 });
    expect(chooseCostDistributions(figures, 'warm').get('triton-wheel')).toMatchObject({
      cacheBytes: 6_400_000_000,
      cacheSigma: 0.05,
      cacheRuns: 3,
    });
  });

  it('name the targets planned with their whole export, in the plan and in plan.json', () => {
    const partial = new Map(figures);
    partial.set('vllm-wheel', { ...figures.get('vllm-wheel')!, imageBytes: undefined });
    const set = chooseCosts(partial, 'cold');
    expect(set.fullExportFor).toEqual(['vllm-wheel']);
    expect(describeCostSet(set)).toBe(
      'costs: cold build seconds (`build` lines), image push bytes for 1 of 2 targets (`image` lines); whole-export bytes for vllm-wheel (no `image` line)',
    );
    expect(describeCostSet(chooseCosts(withoutImage, 'cold'))).toMatch(
      /no `image` line yet: whole-export bytes/,
    );
    expect(wholeExportPlan.costs.fullExportFor).toEqual(['triton-wheel', 'vllm-wheel']);
    expect(renderPlan(imagePlan)).toContain(
      'costs: cold build seconds (`build` lines), image push bytes (`image` lines)',
    );
  });

  it('charged their whole exports, both wheels avoid the WiFi node; charged their images, the cold run takes half as long', () => {
    // 5 GB at 4.3 MB/s is 19m23s on kiln: the whole-export plan builds both wheels on strix, one after the other.
    expect(wholeExportPlan.queues.kiln ?? []).toEqual([]);
    // 0.25 GB at 4.3 MB/s is 58 s: the image plan builds vllm-wheel on kiln while strix builds triton-wheel.
    expect(imagePlan.queues).toEqual({ strix: ['triton-wheel'], kiln: ['vllm-wheel'] });
    const [whole, image] = [runCold(wholeExportPlan), runCold(imagePlan)];
    // Worked by hand from the images the cold run uploads: strix 948 + 0.3 GB / 900 MB/s, then 900 + 0.25 GB /
    // 900 MB/s; against kiln's 900 + 0.25 GB / 4.3 MB/s beside strix's triton-wheel.
    expect(whole.makespanSeconds).toBeCloseTo(948 + 300e6 / 900e6 + 900 + 250e6 / 900e6, 6);
    expect(image.makespanSeconds).toBeCloseTo(900 + 250e6 / 4.3e6, 6);
    expect(image.makespanSeconds / whole.makespanSeconds).toBeLessThan(0.52);
  });
});
