// `node --import tsx scripts/evaluate-forecast.ts`: is the forecast band honest? Simulated histories with known
// noise: every target's true build seconds and bytes are lognormal around the shipped gfx1201 costs with a known
// sigma (build 0.05–0.4, bytes 0.02–0.2, seeded). Each trial draws H runs of history from the truth, pools them the
// way `rocm-perf costs --from RUN...` does (median and robust sigma, src/plan/pool-costs.ts), plans and forecasts as
// `rocm-perf plan` does, then draws the actual run from the truth and replays the plan's queues with it through
// simulatePlan (the list-schedule evaluator, not the dispatch simulator the forecast uses). Coverage = share of
// trials whose actual makespan is ≤ the forecast p90 (goal 85–95 %); width = (p90 − p10) / p50.
// A second setting adds a run-wide factor (the whole fleet 10 % slower or faster on a night, sigma 0.1 shared by
// every target of a run), which the forecast's independent draws do not model: how much coverage that costs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPlan, forecastMakespan, type CostDistribution } from '../src/plan/index.js';
import { poolFigure } from '../src/plan/pool-costs.js';
import { simulatePlan } from '../src/plan/simulate-plan.js';
import { type CostInput } from '../src/plan/problem.js';
import { loadPlanInputs } from '../src/run/plan-inputs/load-plan-inputs.js';
import { createRandom, type Random } from '../src/shared/random.js';

const TRIALS = Number(process.env.TRIALS ?? 300);
const DRAWS = Number(process.env.DRAWS ?? 1000);

function normal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
}

interface Truth {
  median: CostInput;
  buildSigma: number;
  cacheSigma: number;
}

function drawRun(
  random: Random,
  truth: ReadonlyMap<string, Truth>,
  sharedSigma: number,
): Map<string, CostInput> {
  const shared = sharedSigma * normal(random);
  return new Map(
    [...truth].map(([name, t]) => [
      name,
      {
        buildSeconds: (t.median.buildSeconds ?? 0) * Math.exp(shared + t.buildSigma * normal(random)),
        cacheBytes: (t.median.cacheBytes ?? 0) * Math.exp(t.cacheSigma * normal(random)),
      },
    ]),
  );
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const inputs = await loadPlanInputs({ fleetPath: path.join(root, 'fleet.yaml'), env: {} });
const setup = createRandom(29);
const truth = new Map<string, Truth>(
  inputs.graph.targets.map((name) => [
    name,
    {
      median: {
        buildSeconds: inputs.costs.get(name)!.buildSeconds,
        cacheBytes: inputs.costs.get(name)!.cacheBytes,
      },
      buildSigma: 0.05 + setup.next() * 0.35,
      cacheSigma: 0.02 + setup.next() * 0.18,
    },
  ]),
);

function evaluate(history: number, sharedSigma: number, seed: number) {
  const random = createRandom(seed);
  let under90 = 0;
  let inside = 0;
  const widths: number[] = [];
  for (let trial = 0; trial < TRIALS; trial++) {
    const runs = Array.from({ length: history }, () => drawRun(random, truth, sharedSigma));
    const distributions = new Map<string, CostDistribution>();
    for (const name of truth.keys()) {
      const build = poolFigure(runs.map((run) => run.get(name)!.buildSeconds ?? 0));
      const bytes = poolFigure(runs.map((run) => run.get(name)!.cacheBytes ?? 0));
      distributions.set(name, {
        buildSeconds: build.median,
        buildSigma: build.sigma,
        buildRuns: build.runs,
        cacheBytes: bytes.median,
        cacheSigma: bytes.sigma,
        cacheRuns: bytes.runs,
      });
    }
    const costs = new Map(
      [...distributions].map(([n, d]) => [n, { buildSeconds: d.buildSeconds, cacheBytes: d.cacheBytes }]),
    );
    const plan = createPlan({
      graph: inputs.graph,
      costs,
      nodes: inputs.config.nodes,
      arch: inputs.config.arch,
      createdAt: '2026-12-06T00:00:00Z',
    });
    // The band is drawn even for 1–2 runs of history (where `plan` shows none), to see how it would hold.
    const band = forecastMakespan({
      plan,
      distributions,
      draws: DRAWS,
      seed: seed * 1000 + trial,
      floorSeconds: plan.lowerBoundSeconds,
    }).makespan;
    const waitFor = Object.fromEntries(Object.entries(plan.targets).map(([n, t]) => [n, t.waitFor]));
    const actual = simulatePlan({
      queues: plan.queues,
      waitFor,
      costs: drawRun(random, truth, sharedSigma),
      nodes: inputs.config.nodes,
    }).makespanSeconds;
    if (actual <= band.p90) under90 += 1;
    if (actual >= band.p10 && actual <= band.p90) inside += 1;
    widths.push((band.p90 - band.p10) / band.p50);
  }
  widths.sort((a, b) => a - b);
  return {
    under90: under90 / TRIALS,
    inside: inside / TRIALS,
    width: widths[Math.floor(widths.length / 2)]!,
  };
}

console.log(
  `forecast calibration on simulated histories: shipped gfx1201 scenario (${truth.size} targets, ${inputs.config.nodes.length} nodes), ${TRIALS} trials per row, ${DRAWS} draws per forecast`,
);
console.log('history runs | shared factor | actual ≤ p90 | actual in p10–p90 | median width (p90−p10)/p50');
for (const shared of [0, 0.1])
  for (const history of [3, 5, 10, 20]) {
    const r = evaluate(history, shared, 1000 + history * 7 + shared * 100);
    console.log(
      `${String(history).padStart(12)} | ${shared === 0 ? 'none         ' : 'sigma 0.1    '} | ${(r.under90 * 100).toFixed(1).padStart(11)} % | ${(r.inside * 100).toFixed(1).padStart(16)} % | ${r.width.toFixed(3)}`,
    );
  }
