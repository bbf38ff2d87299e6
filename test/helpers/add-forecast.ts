import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PlanFileSchema, type Plan } from '../../src/artifacts/index.js';
import { forecastMakespan, type CostDistribution } from '../../src/plan/index.js';
import { toCostsFromPlan } from '../../src/plan/dispatch-guide.js';
import { toStoredDistribution } from '../../src/plan/forecast-makespan.js';

// A copy of a fixture run whose plan.json carries a forecast, as `plan` writes one today: the fixture runs were
// recorded before forecasts. Each target's figures are the plan's own, with the given spread over `runs` runs.

function toPlanDistributions(plan: Plan, sigma: number, runs: number): Map<string, CostDistribution> {
  return new Map(
    [...toCostsFromPlan(plan)].map(([name, cost]) => [
      name,
      {
        buildSeconds: cost.buildSeconds ?? 0,
        buildSigma: sigma,
        buildRuns: runs,
        cacheBytes: cost.cacheBytes ?? 0,
        cacheSigma: sigma / 2,
        cacheRuns: runs,
      },
    ]),
  );
}

export function copyRunWithForecast(
  fixtureDir: string,
  { sigma = 0.15, runs = 5 }: { sigma?: number; runs?: number } = {},
): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'rocm-perf-forecast-')), path.basename(fixtureDir));
  cpSync(fixtureDir, dir, { recursive: true });
  const file = path.join(dir, 'plan.json');
  const plan = PlanFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const distributions = toPlanDistributions(plan, sigma, runs);
  const forecast = forecastMakespan({ plan, distributions, draws: 1000, minDraws: 1000 });
  const withForecast: Plan = {
    ...plan,
    forecast: {
      ...forecast,
      placedFor: 'median',
      distributions: Object.fromEntries([...distributions].map(([n, d]) => [n, toStoredDistribution(d)])),
    },
  };
  writeFileSync(file, `${JSON.stringify(withForecast, null, 2)}\n`);
  return dir;
}
