import path from 'node:path';
import type { Config, ConfigOverrides } from '../../../config/index.js';
import type { BakePrint, TargetGraph } from '../../../graph/index.js';
import { describePlaceForSkipped, planFromFigures, type PlaceFor } from '../../../plan/index.js';
import type { DispatchMode, Harness, Plan } from '../../../artifacts/index.js';
import { readPlanFile } from '../../../run-dir/index.js';
import type { Clock } from '../../../shared/clock.js';
import { InternalError, UsageError } from '../../../shared/errors.js';
import { toFileAccessError } from '../../../shared/to-file-access-error.js';
import type { RunBakePrint } from '../../executors/index.js';
import { loadPlanInputs } from '../../plan-inputs/index.js';
import { findQueueProblems } from '../queues/index.js';
import { createRunSettings, type RunSettings } from './run-settings.js';
import { createRunDir } from './run-stamp.js';

// Phase 1: config, graph and plan (the same packer as `rocm-perf plan`, or a saved plan.json).

import type { FileDigests } from '../../../shared/file-digests.js';

export interface RunContext {
  harness: Harness;
  stamp: string;
  root: string;
  /** `<root>/<stamp>`, created exclusively; removed again if preflight fails. */
  runDir: string;
  fleetPath: string;
  config: Config;
  graph: TargetGraph;
  print: BakePrint;
  plan: Plan;
  settings: RunSettings;
  dispatch: DispatchMode;
  /** target → what its queue waits for (in-run deps, plus stage barriers for `stages`). */
  waitFor: Record<string, string[]>;
  warnings: string[];
  /** What the run writes, hashed as it is written (run.json `files`); set by runHarness. */
  digests?: FileDigests;
}

export interface LoadRunContextOptions {
  harness: Harness;
  fleetPath: string;
  flags: ConfigOverrides;
  /** Absolute: `--root` as the flag table resolved it (commands/flags/value-schemas.ts, absoluteDir). */
  root: string;
  strategy?: string | undefined;
  /** Reuse a saved plan.json instead of planning now. */
  planPath?: string | undefined;
  /** `--dispatch` (bench, which has no such flag, runs fixed: the command's toHarnessDispatch). guided is refused for bench. */
  dispatch: DispatchMode;
  /** Robust placement (`--place-for p90`); default median. */
  placeFor?: PlaceFor | undefined;
  /** Forecast draws (`--draws`); default 2000. */
  draws?: number | undefined;
  /** The CLI's environment, for the config's REGISTRY_NAME and PERF_BUILDX and the registry credentials. */
  env: Readonly<Record<string, string | undefined>>;
  /** PERF_COLD_NAMESPACE, resolved by the CLI ('' when unset). */
  coldNamespaceSuffix: string;
  clock: Clock;
  runBakePrint?: RunBakePrint | undefined;
}

/** A saved plan must cover exactly the run's targets, on nodes the fleet has. */
function findPlanMismatches(plan: Plan, graph: TargetGraph, config: Config): string[] {
  const problems: string[] = [];
  const planned = new Set(Object.keys(plan.targets));
  const wanted = new Set(graph.targets);
  const missing = graph.targets.filter((target) => !planned.has(target));
  const extra = [...planned].filter((target) => !wanted.has(target)).sort();
  if (missing.length > 0) problems.push(`the plan has no place for ${missing.join(', ')}`);
  if (extra.length > 0) problems.push(`the plan places targets the run does not build: ${extra.join(', ')}`);
  const nodes = new Set(config.nodes.map((node) => node.name));
  for (const node of Object.keys(plan.queues))
    if (!nodes.has(node)) problems.push(`the plan queues work on ${node}, which fleet.yaml does not list`);
  return problems;
}

/** `--plan FILE` through the schema; a missing or unreadable file names the flag, a broken one keeps its message. */
async function readPlanFlag(planPath: string): Promise<Plan> {
  return readPlanFile(path.resolve(planPath)).catch((error: unknown) => {
    const cause = error instanceof Error ? error.cause : undefined;
    if ((cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
      throw new UsageError(`--plan ${planPath}: no such file`, {
        cause: error,
        hint: 'write one with `rocm-perf plan --out DIR` (then --plan DIR/plan.json), or leave --plan out to plan now',
      });
    const mapped = toFileAccessError(cause, {
      path: planPath,
      flag: '--plan',
      doing: 'read the plan',
      reading: true,
    });
    throw mapped === cause ? error : mapped;
  });
}

export async function loadRunContext(options: LoadRunContextOptions): Promise<RunContext> {
  const { harness, fleetPath, flags, env, clock, dispatch } = options;
  if (dispatch === 'guided' && harness === 'bench') {
    throw new UsageError('bench runs one target at a time, so guided dispatch has nothing to move', {
      hint: 'drop --dispatch, or use cold/warm',
    });
  }
  const inputs = await loadPlanInputs({ fleetPath, flags, env, runBakePrint: options.runBakePrint });
  const { config, graph, print } = inputs;
  // A warm run plans with warm build figures: its build terms collapse while its cache terms stay.
  const plan = options.planPath
    ? await readPlanFlag(options.planPath)
    : planFromFigures({
        figures: inputs.costs,
        mode: harness === 'warm' ? 'warm' : 'cold',
        forecast: harness !== 'bench',
        graph,
        nodes: config.nodes,
        strategy: options.strategy,
        arch: config.arch,
        createdAt: new Date(clock.nowMs()).toISOString(),
        policy: dispatch,
        placeFor: options.placeFor,
        draws: options.draws,
      });
  const waitFor = Object.fromEntries(
    Object.entries(plan.targets).map(([target, entry]) => [target, entry.waitFor]),
  );
  const problems = [
    ...(options.planPath ? findPlanMismatches(plan, graph, config) : []),
    ...findQueueProblems(plan.queues, waitFor),
  ];
  if (problems.length > 0) {
    throw new UsageError(`the plan cannot be run:\n  ${problems.join('\n  ')}`, {
      hint: 're-run `rocm-perf plan --out DIR` for these targets, or drop --plan',
    });
  }
  const placeNote = options.planPath ? undefined : describePlaceForSkipped(plan, options.placeFor);
  const { root } = options;
  if (!path.isAbsolute(root))
    throw new InternalError(`runHarness was handed a relative root (${root}): the command resolves --root`);
  const { stamp, dir } = await createRunDir({ root, clock });
  const settings = createRunSettings({
    harness,
    config,
    stamp,
    coldNamespaceSuffix: options.coldNamespaceSuffix,
  });
  return {
    harness,
    stamp,
    root,
    runDir: dir,
    fleetPath: config.source,
    config,
    graph,
    print,
    plan,
    settings,
    dispatch,
    waitFor,
    warnings: [...inputs.warnings, ...(placeNote === undefined ? [] : [placeNote])],
  };
}
