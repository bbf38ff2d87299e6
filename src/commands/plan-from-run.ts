import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { parseTargetCosts } from '../config/parse-target-costs.js';
import { parseFleetChanges, renderReplay, replayRun, type RawFleetChanges } from '../plan/index.js';
import { readPlanFile, writePlanFile } from '../plan/plan-file-io.js';
import { readRunDirFile, readRunTraces } from '../run/read-run-traces.js';
import { systemClock } from '../shared/clock.js';
import { ConfigError, UsageError } from '../shared/errors.js';

// `rocm-perf plan --from-run RUN`: the I/O around the pure replay (src/plan/replay-run.ts). Reads the run dir
// (run.json, plan.json, trace-*.json) and the current target costs (the fallback for cold bytes and targets
// without a usable trace), then prints the replay or writes the predicted plan.

export interface PlanFromRunOptions extends RawFleetChanges {
  fromRun: string;
  root?: string;
  fleet: string;
  costs?: string;
  strategy?: string;
  json: boolean;
  out?: string;
}

async function resolveRunDir(from: string, root: string | undefined): Promise<string> {
  const candidates = [path.resolve(from), ...(root === undefined ? [] : [path.resolve(root, from)])];
  for (const candidate of candidates) {
    if ((await stat(candidate).catch(() => undefined))?.isDirectory()) return candidate;
  }
  throw new UsageError(`--from-run ${from}: no such run dir (looked at ${candidates.join(' and ')})`, {
    hint: 'pass a run dir written by `rocm-perf cold|warm|bench`, or its stamp under --root',
  });
}

async function readTargetCosts(options: PlanFromRunOptions) {
  const { config } = await loadConfig({ fleetPath: options.fleet, overrides: { costsPath: options.costs } });
  const text = await readFile(config.costsPath, 'utf8').catch(() => undefined);
  if (text === undefined)
    return {
      costs: undefined,
      notes: [`target costs ${config.costsPath} not readable; every figure must come from the run`],
    };
  const parsed = parseTargetCosts(text, config.costsPath);
  if (parsed.errors.length > 0) throw new ConfigError(config.costsPath, parsed.errors);
  return { costs: parsed.costs, notes: [] };
}

export async function runPlanFromRun(options: PlanFromRunOptions): Promise<void> {
  const changes = parseFleetChanges(options);
  const runDir = await resolveRunDir(options.fromRun, options.root);
  const run = await readRunDirFile(runDir);
  const plan = await readPlanFile(runDir);
  const { traces, warnings } = await readRunTraces(runDir);
  const targetCosts = await readTargetCosts(options);
  for (const line of [...warnings, ...targetCosts.notes]) console.error(`note: ${line}`);
  const createdAt = new Date(systemClock.nowMs()).toISOString();
  const result = replayRun({
    run,
    plan,
    traces,
    targetCosts: targetCosts.costs,
    changes,
    strategy: options.strategy,
    createdAt,
  });
  if (options.out !== undefined) console.error(`wrote ${await writePlanFile(options.out, result.plan)}`);
  process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : renderReplay(result));
}
