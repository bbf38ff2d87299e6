import { writePlanFile } from '../run-dir/index.js';
import type { CliEnv } from './flags/read-cli-env.js';
import { performance } from 'node:perf_hooks';
import {
  chooseCosts,
  createPlan,
  describePlaceForSkipped,
  planFromFigures,
  renderComparison,
  renderPlan,
  type CostMode,
  type FleetChanges,
} from '../plan/index.js';
import { type Plan, STRATEGY_DESCRIPTIONS, STRATEGY_NAMES, type StrategyName } from '../artifacts/index.js';

import type { RunBakePrint } from '../run/executors/index.js';
import { loadPlanInputs, type PlanInputs } from '../run/plan-inputs/index.js';
import { systemClock } from '../shared/clock.js';
import { UsageError } from '../shared/errors.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import { toPlanInputOverrides, type PlanValues } from './flags/index.js';

function toFleetChanges(options: PlanValues): FleetChanges {
  return {
    links: options.link,
    speeds: options.speed,
    dropNodes: options.dropNode,
    addNodes: options.addNode,
  };
}

function checkReplayFlags(options: PlanValues): void {
  const counts = {
    '--link': Object.keys(options.link).length,
    '--speed': Object.keys(options.speed).length,
    '--drop-node': options.dropNode.length,
    '--add-node': options.addNode.length,
  };
  const edits = Object.entries(counts).flatMap(([flag, count]) => (count > 0 ? [flag] : []));
  if (options.fromRun === undefined && edits.length > 0) {
    throw new UsageError(`${edits.join(', ')}: fleet edits apply to a recorded run; add --from-run RUN`, {
      hint: 'rocm-perf plan --from-run RUN_DIR --link kiln=110',
    });
  }
  if (options.fromRun !== undefined && options.compare)
    throw new UsageError('--compare and --from-run do not combine', {
      hint: 'replay one strategy at a time with --strategy',
    });
}

interface PlanWithOptions {
  strategy: StrategyName | undefined;
  mode: CostMode;
  createdAt: string;
}

function planWith(inputs: PlanInputs, { strategy, mode, createdAt }: PlanWithOptions): Plan {
  const { graph, config } = inputs;
  const costSet = chooseCosts(inputs.costs, mode);
  return createPlan({
    graph,
    costs: costSet.costs,
    costSet,
    nodes: config.nodes,
    strategy,
    arch: config.arch,
    createdAt,
  });
}

function planAndForecast(inputs: PlanInputs, options: PlanValues, createdAt: string): Plan {
  return planFromFigures({
    figures: inputs.costs,
    mode: options.mode,
    graph: inputs.graph,
    nodes: inputs.config.nodes,
    strategy: options.strategy,
    arch: inputs.config.arch,
    createdAt,
    policy: options.dispatch,
    draws: options.draws,
    placeFor: options.placeFor,
  });
}

function compareStrategies(inputs: PlanInputs, options: Omit<PlanWithOptions, 'strategy'>) {
  return STRATEGY_NAMES.map((strategy) => {
    const started = performance.now();
    const plan = planWith(inputs, { ...options, strategy });
    const planningMs = performance.now() - started;
    const { makespanSeconds, lowerBoundSeconds } = plan;
    return {
      strategy,
      description: STRATEGY_DESCRIPTIONS[strategy],
      makespanSeconds,
      lowerBoundSeconds,
      planningMs,
    };
  });
}

// `rocm-perf plan`: place every target on a node. Builds nothing.
export async function runPlanCommand(
  options: PlanValues,
  /** `env`: the CLI's environment (REGISTRY_NAME, PERF_BUILDX); none when a test leaves it out. */
  effects: { runBakePrint?: RunBakePrint; env?: CliEnv } = {},
): Promise<void> {
  checkReplayFlags(options);
  if (options.fromRun !== undefined) {
    const { runPlanFromRun } = await import('./plan-from-run.js');
    return runPlanFromRun({ ...options, fromRun: options.fromRun, changes: toFleetChanges(options) });
  }
  const inputs = await loadPlanInputs({
    fleetPath: options.fleet,
    flags: toPlanInputOverrides(options),
    env: effects.env ?? {},
    runBakePrint: effects.runBakePrint,
  });
  for (const warning of inputs.warnings) console.error(`warning: ${warning}`);
  const createdAt = new Date(systemClock.nowMs()).toISOString();
  if (options.compare) {
    const rows = compareStrategies(inputs, { mode: options.mode, createdAt });
    process.stdout.write(
      options.json ? `${JSON.stringify({ strategies: rows }, null, 2)}\n` : renderComparison(rows),
    );
  }
  const plan = planAndForecast(inputs, options, createdAt);
  const skipped = describePlaceForSkipped(plan, options.placeFor);
  if (skipped !== undefined) console.error(`note: ${skipped}`);
  if (options.out !== undefined) {
    const file = await writePlanFile(options.out, plan).catch(
      throwFileAccessError({ path: options.out, flag: '--out', doing: 'write plan.json into it' }),
    );
    console.error(`wrote ${file}`);
  }
  if (!options.compare)
    process.stdout.write(options.json ? `${JSON.stringify(plan, null, 2)}\n` : renderPlan(plan));
}
