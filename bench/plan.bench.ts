// `npm run bench:plan`: plan quality (makespan ÷ lower bound) per strategy on seeded random instances, planning
// time at 300 targets × 24 nodes and 1,000 × 64, the shipped gfx1201 scenario, and fixed queues vs plan-guided dispatch under
// noisy durations (bench/plan-dispatch.ts). Prints tables; exits 1 if a target is missed.
import path from 'node:path';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadPlanInputs } from '../src/run/plan-inputs/load-plan-inputs.js';
import { createPlan } from '../src/plan/index.js';
import { createProblem } from '../src/plan/problem.js';
import { type Plan, STRATEGY_NAMES, type StrategyName } from '../src/artifacts/index.js';
import { toMinCosts } from '../src/plan/problem.js';
import { createRandom } from '../src/shared/random.js';
import { createInstance, type Instance } from './create-instance.js';
import { compareDispatch, printDispatch, summarize, type DispatchCase } from './plan-dispatch.js';
import { compareRobust, printRobust, type RobustCase } from './plan-robust.js';

const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 200);
const SEED = Number(process.env.BENCH_SEED ?? 20261202);
const DRAWS = Number(process.env.BENCH_DRAWS ?? 20);
const createdAt = '2026-01-01T00:00:00.000Z';

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

const EXACT_MAX_TARGETS = 10;
const EXACT_MAX_STEPS = 3_000_000;

/**
 * Exhaustive branch and bound over every fixed-queue schedule (each ready target appended to each node's queue),
 * looking for one strictly shorter than `makespan`. 'optimal' = none exists; 'beaten' = one was found;
 * 'undecided' = the step cap was hit.
 */
function checkOptimal(instance: Instance, makespan: number): 'optimal' | 'beaten' | 'undecided' {
  const p = createProblem(instance);
  const own = toMinCosts(p);
  const tail = new Float64Array(p.n);
  for (const j of [...p.topo].reverse())
    for (const k of p.succs[j]!) tail[j] = Math.max(tail[j]!, own[k]! + tail[k]!);
  const finish = new Float64Array(p.n);
  const done = new Uint8Array(p.n);
  const free = new Float64Array(p.m);
  const limit = makespan * (1 - 1e-9);
  let steps = 0;
  let beaten = false;
  const search = (count: number): void => {
    if (beaten || ++steps > EXACT_MAX_STEPS) return;
    if (count === p.n) return void (beaten = true);
    for (let j = 0; j < p.n; j++) {
      if (done[j] || p.preds[j]!.some((d) => !done[d])) continue;
      const ready = Math.max(0, ...p.preds[j]!.map((d) => finish[d]!));
      for (let i = 0; i < p.m; i++) {
        const end = Math.max(ready, free[i]!) + p.cost[j * p.m + i]!;
        if (end + tail[j]! >= limit) continue;
        const saved = free[i]!;
        [done[j], finish[j], free[i]] = [1, end, end];
        search(count + 1);
        [done[j], free[i]] = [0, saved];
      }
    }
  };
  search(0);
  return beaten ? 'beaten' : steps > EXACT_MAX_STEPS ? 'undecided' : 'optimal';
}

function measure(
  instance: Instance,
  strategy: StrategyName,
): { ratio: number; ms: number; makespan: number; plan: Plan } {
  const started = performance.now();
  const plan = createPlan({ ...instance, strategy, arch: 'bench', createdAt });
  return {
    ratio: plan.makespanSeconds / plan.lowerBoundSeconds,
    ms: performance.now() - started,
    makespan: plan.makespanSeconds,
    plan,
  };
}

/** The heft-ls plans of the random instances, for the dispatch comparison. */
const dispatchCases: DispatchCase[] = [];

const exact = { optimal: 0, beaten: 0, undecided: 0, ratios: [] as number[] };

function runRandom(): Map<StrategyName, { ratios: number[]; ms: number[] }> {
  const random = createRandom(SEED);
  const results = new Map(
    STRATEGY_NAMES.map((name) => [name, { ratios: [] as number[], ms: [] as number[] }]),
  );
  for (let k = 0; k < INSTANCES; k++) {
    const instance = createInstance(random, { targets: [8, 40], nodes: [3, 8] });
    for (const strategy of STRATEGY_NAMES) {
      const { ratio, ms, makespan, plan } = measure(instance, strategy);
      if (strategy === 'heft-ls') dispatchCases.push({ plan, costs: instance.costs, nodes: instance.nodes });
      results.get(strategy)!.ratios.push(ratio);
      results.get(strategy)!.ms.push(ms);
      if (strategy === 'heft-ls' && instance.graph.targets.length <= EXACT_MAX_TARGETS) {
        exact[checkOptimal(instance, makespan)]++;
        exact.ratios.push(ratio);
      }
    }
  }
  return results;
}

function printRandom(results: ReturnType<typeof runRandom>): void {
  console.log(
    `random instances: ${INSTANCES} (seed ${SEED}; 8–40 targets, 3–8 nodes, links 4–900 MB/s, speeds 0.6–1.3, ≤ 2 deps)`,
  );
  console.log('strategy     median    p90      max      at LB   mean ms');
  for (const [name, { ratios, ms }] of results) {
    const sorted = [...ratios].sort((a, b) => a - b);
    const atBound = sorted.filter((r) => r <= 1 + 1e-6).length / sorted.length;
    const meanMs = ms.reduce((a, b) => a + b, 0) / ms.length;
    const cells = [quantile(sorted, 0.5), quantile(sorted, 0.9), sorted.at(-1) ?? NaN].map((r) =>
      r.toFixed(4).padEnd(9),
    );
    console.log(
      `${name.padEnd(12)} ${cells.join('')}${`${(atBound * 100).toFixed(0)}%`.padEnd(8)}${meanMs.toFixed(1)}`,
    );
  }
}

function timeLarge(
  targets: number,
  nodes: number,
  seed: number,
  repeats: number,
): { strategy: StrategyName; ms: number; ratio: number }[] {
  const instance = createInstance(createRandom(seed), { targets: [targets, targets], nodes: [nodes, nodes] });
  return STRATEGY_NAMES.map((strategy) => {
    measure(instance, strategy);
    const runs = Array.from({ length: repeats }, () => measure(instance, strategy));
    const ms = Math.min(...runs.map((run) => run.ms));
    return { strategy, ms, ratio: runs[0]!.ratio };
  });
}

const scenarioCases: DispatchCase[] = [];
const scenarioRobustCases: RobustCase[] = [];

async function runScenario(): Promise<{ strategy: StrategyName; makespan: number; bound: number }[]> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const inputs = await loadPlanInputs({ fleetPath: path.join(root, 'fleet.yaml'), env: {} });
  return STRATEGY_NAMES.map((strategy) => {
    const plan = createPlan({
      graph: inputs.graph,
      costs: inputs.costs,
      nodes: inputs.config.nodes,
      strategy,
      arch: inputs.config.arch,
      createdAt,
    });
    if (strategy === 'heft-ls') {
      scenarioCases.push({ plan, costs: inputs.costs, nodes: inputs.config.nodes });
      scenarioRobustCases.push({ graph: inputs.graph, costs: inputs.costs, nodes: inputs.config.nodes });
    }
    return { strategy, makespan: plan.makespanSeconds, bound: plan.lowerBoundSeconds };
  });
}

const random = runRandom();
printRandom(random);
const checked = exact.optimal + exact.beaten + exact.undecided;
console.log(
  `\nexact check, instances with ≤ ${EXACT_MAX_TARGETS} targets (${checked}): heft-ls proven optimal in ${exact.optimal}, ` +
    `beaten in ${exact.beaten}, undecided in ${exact.undecided} (branch and bound, ${EXACT_MAX_STEPS} steps each); ` +
    `their makespan ÷ lower bound reaches ${Math.max(...exact.ratios).toFixed(3)}, so the rest of the gap there is the bound's`,
);
const printLarge = (title: string, rows: ReturnType<typeof timeLarge>) => {
  console.log(`\n${title}`);
  for (const row of rows)
    console.log(
      `${row.strategy.padEnd(12)} ${row.ms.toFixed(1).padStart(8)} ms   makespan ÷ lower bound ${row.ratio.toFixed(4)}`,
    );
};
const large = timeLarge(300, 24, SEED + 1, 3);
printLarge('300 targets × 24 nodes: planning time (best of 3, including the lower bound)', large);
const scale = timeLarge(1000, 64, SEED + 4, 2);
printLarge(
  `1,000 targets × 64 nodes: planning time (best of 2 after a warm-up, including the lower bound; load ${loadavg()[0]!.toFixed(2)})`,
  scale,
);
const scenario = await runScenario();
console.log('\nshipped gfx1201 scenario (fleet.yaml)');
for (const row of scenario) {
  console.log(
    `${row.strategy.padEnd(12)} makespan ${row.makespan.toFixed(1).padStart(8)} s   LB ${row.bound.toFixed(1)} s   ratio ${(row.makespan / row.bound).toFixed(4)}`,
  );
}
const dispatchRandom = compareDispatch(dispatchCases, { draws: DRAWS, seed: SEED + 2 });
printDispatch(`dispatch, random instances (heft-ls plans)`, dispatchRandom);
const dispatchScenario = compareDispatch(scenarioCases, { draws: 10 * DRAWS, seed: SEED + 3 });
printDispatch('dispatch, shipped gfx1201 scenario (heft-ls plan)', dispatchScenario);
const ROBUST_INSTANCES = Number(process.env.BENCH_ROBUST_INSTANCES ?? 60);
const robustRandom = createRandom(SEED + 5);
const robustCases: RobustCase[] = Array.from({ length: ROBUST_INSTANCES }, () =>
  createInstance(robustRandom, { targets: [8, 40], nodes: [2, 8] }),
);
const robust = compareRobust(robustCases, { seed: SEED + 6, draws: 500 });
printRobust(
  `robust placement, ${ROBUST_INSTANCES} random instances with known noise (heft-ls, fixed queues)`,
  robust,
);
const robustScenario = compareRobust(scenarioRobustCases, { seed: SEED + 7, draws: 2000 });
printRobust('robust placement, shipped gfx1201 scenario with known noise', robustScenario);
const best = [...random.get('heft-ls')!.ratios].sort((a, b) => a - b);
const medianOf = (comparison: typeof dispatchRandom, policy: 'fixed' | 'guided') =>
  summarize(comparison.ratioToBound[policy]).median;
const checks = [
  ['heft-ls median ≤ 1.03', quantile(best, 0.5) <= 1.03],
  ['heft-ls p90 ≤ 1.12', quantile(best, 0.9) <= 1.12],
  ['300 × 24 heft-ls < 200 ms', (large.find((row) => row.strategy === 'heft-ls')?.ms ?? Infinity) < 200],
  ['1000 × 64 heft-ls < 2 s', (scale.find((row) => row.strategy === 'heft-ls')?.ms ?? Infinity) < 2000],
  [
    'scenario heft-ls at its lower bound',
    scenario.some((row) => row.strategy === 'heft-ls' && row.makespan <= row.bound * (1 + 1e-9)),
  ],
  [
    'guided median makespan ≤ fixed median (random)',
    medianOf(dispatchRandom, 'guided') <= medianOf(dispatchRandom, 'fixed'),
  ],
  ['guided ÷ fixed median ≤ 1 (random)', summarize(dispatchRandom.ratioToFixed.guided).median <= 1],
  ['p90-placed ÷ median-placed p90, median ≤ 1 (random, noise)', summarize(robust.ratios).median <= 1],
  [
    'guided median makespan ≤ fixed median (scenario)',
    medianOf(dispatchScenario, 'guided') <= medianOf(dispatchScenario, 'fixed'),
  ],
] as const;
console.log('');
for (const [label, ok] of checks) console.log(`${ok ? 'ok  ' : 'MISS'} ${label}`);
if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
