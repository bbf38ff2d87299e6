import { performance } from 'node:perf_hooks';
import type { RunBakePrint } from '../run/executors/bake-print.js';
import { loadPlanInputs, type PlanInputs } from '../run/load-plan-inputs.js';
import {
  createPlan,
  renderComparison,
  renderPlan,
  STRATEGY_DESCRIPTIONS,
  STRATEGY_NAMES,
  toStrategyName,
  type Plan,
  type StrategyName,
} from '../plan/index.js';
import { writePlanFile } from '../plan/plan-file-io.js';
import { systemClock } from '../shared/clock.js';
import { UsageError } from '../shared/errors.js';
import { parseTargetList, type PlanInputOptions } from './options.js';

export interface PlanCommandOptions extends PlanInputOptions {
  strategy?: string;
  compare: boolean;
  out?: string;
  /** What-if replay of a recorded run, with optional fleet changes. */
  fromRun?: string;
  root?: string;
  link?: string[];
  speed?: string[];
  dropNode?: string[];
  addNode?: string[];
}

const replayFlags = ['link', 'speed', 'dropNode', 'addNode'] as const;
const flagName = (key: (typeof replayFlags)[number]) =>
  `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

function checkReplayFlags(options: PlanCommandOptions): void {
  const fleetEdits = replayFlags.filter((key) => (options[key]?.length ?? 0) > 0);
  if (options.fromRun === undefined && fleetEdits.length > 0) {
    throw new UsageError(
      `${fleetEdits.map(flagName).join(', ')}: fleet edits apply to a recorded run; add --from-run RUN`,
      { hint: 'rocm-perf plan --from-run RUN_DIR --link kiln=110' },
    );
  }
  if (options.fromRun !== undefined && options.compare)
    throw new UsageError('--compare and --from-run do not combine', {
      hint: 'replay one strategy at a time with --strategy',
    });
}

function planWith(inputs: PlanInputs, strategy: StrategyName, createdAt: string): Plan {
  const { graph, costs, config } = inputs;
  return createPlan({ graph, costs, nodes: config.nodes, strategy, arch: config.arch, createdAt });
}

function compareStrategies(inputs: PlanInputs, createdAt: string) {
  return STRATEGY_NAMES.map((strategy) => {
    const started = performance.now();
    const plan = planWith(inputs, strategy, createdAt);
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
  options: PlanCommandOptions,
  deps: { runBakePrint?: RunBakePrint } = {},
): Promise<void> {
  const strategy = toStrategyName(options.strategy);
  checkReplayFlags(options);
  if (options.fromRun !== undefined) {
    const { runPlanFromRun } = await import('./plan-from-run.js');
    return runPlanFromRun({ ...options, fromRun: options.fromRun });
  }
  const inputs = await loadPlanInputs({
    fleetPath: options.fleet,
    flags: {
      arch: options.arch,
      targets: parseTargetList(options.targets),
      costsPath: options.costs,
      bakePrintPath: options.bakeJson,
    },
    runBakePrint: deps.runBakePrint,
  });
  for (const warning of inputs.warnings) console.error(`warning: ${warning}`);
  const createdAt = new Date(systemClock.nowMs()).toISOString();
  if (options.compare) {
    const rows = compareStrategies(inputs, createdAt);
    process.stdout.write(
      options.json ? `${JSON.stringify({ strategies: rows }, null, 2)}\n` : renderComparison(rows),
    );
  }
  const plan = planWith(inputs, strategy, createdAt);
  if (options.out !== undefined) console.error(`wrote ${await writePlanFile(options.out, plan)}`);
  if (!options.compare)
    process.stdout.write(options.json ? `${JSON.stringify(plan, null, 2)}\n` : renderPlan(plan));
}
