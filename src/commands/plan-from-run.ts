import { readRequiredPlanFile, writePlanFile, readRequiredRunFile, openRunDir } from '../run-dir/index.js';
import { TRACE_FILE } from '../artifacts/index.js';
import { readFile } from 'node:fs/promises';
import { loadConfig, parseTargetCosts } from '../config/index.js';
import { chooseCosts, renderReplay, replayRun, type CostMode, type FleetChanges } from '../plan/index.js';

import { replayAsRecorded } from '../diff/index.js';
import { gateRun } from '../report/index.js';
import { readRunTraces } from '../run-dir/index.js';
import { systemClock } from '../shared/clock.js';
import { ConfigError, RocmPerfError } from '../shared/errors.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import type { PlanValues } from './flags/index.js';
import { resolveRunDir } from './resolve-run-dir.js';

// `rocm-perf plan --from-run RUN`: the I/O around the pure replay (src/plan/replay-run.ts). Reads the run dir
// (run.json, plan.json, trace-*.json) and the current target costs, chosen for the run's mode (the fallback for
// targets without a usable trace), then prints the replay or writes the predicted plan. Beside the cost-model
// baseline it prints diff's replay of the same run (src/diff/replay-as-recorded.ts), which reproduces the run.

export interface PlanFromRunOptions extends PlanValues {
  fromRun: string;
  changes: FleetChanges;
}

async function readTargetCosts(options: PlanFromRunOptions, mode: CostMode) {
  const { config } = await loadConfig({ fleetPath: options.fleet, overrides: { costsPath: options.costs } });
  const text = await readFile(config.costsPath, 'utf8').catch(() => undefined);
  if (text === undefined)
    return {
      costs: undefined,
      notes: [`target costs ${config.costsPath} not readable; every figure must come from the run`],
    };
  const parsed = parseTargetCosts(text, config.costsPath);
  if (parsed.errors.length > 0) throw new ConfigError(config.costsPath, parsed.errors);
  return { costs: chooseCosts(parsed.costs, mode).costs, notes: [] };
}

export async function runPlanFromRun(options: PlanFromRunOptions): Promise<void> {
  const runDir = await resolveRunDir({ flag: '--from-run', run: options.fromRun, root: options.root });
  const handle = openRunDir(runDir);
  const run = await readRequiredRunFile(handle);
  const nowMs = systemClock.nowMs();
  // The replay re-runs plan.json's queues with the traces' figures: both must be this run's (the report's checks).
  const gate = await gateRun({ runDir: handle, nowMs });
  if (gate.planProblem !== undefined)
    throw new RocmPerfError('ROCMPERF_RUN_FLAGGED', `--from-run ${runDir}: ${gate.planProblem}`, {
      hint: 'replay a run whose plan.json is the plan it used (restore it from a copy of the run dir), or plan afresh with `rocm-perf plan`',
    });
  const plan = await readRequiredPlanFile(handle);
  const { traces, warnings } = await readRunTraces(handle);
  for (const file of gate.flaggedFiles) {
    const target = TRACE_FILE.exec(file)?.[1];
    if (target !== undefined) traces.delete(target);
  }
  for (const line of gate.loudWarnings) console.error(`WARNING: ${line}`);
  const mode = run.mode ?? (run.harness === 'warm' ? 'warm' : 'cold');
  const targetCosts = await readTargetCosts(options, mode);
  for (const line of [...warnings, ...targetCosts.notes]) console.error(`note: ${line}`);
  const createdAt = new Date(systemClock.nowMs()).toISOString();
  const result = replayRun({
    run,
    plan,
    traces,
    targetCosts: targetCosts.costs,
    changes: options.changes,
    strategy: options.strategy,
    mode,
    createdAt,
  });
  // The same run as `diff` replays it, so the two commands' figures for one run can be read side by side.
  const { model } = gate;
  result.asRecorded = replayAsRecorded({ runFile: run, plan, model });
  if (options.out !== undefined) {
    const file = await writePlanFile(options.out, result.plan).catch(
      throwFileAccessError({ path: options.out, flag: '--out', doing: 'write plan.json into it' }),
    );
    console.error(`wrote ${file}`);
  }
  process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : renderReplay(result));
}
