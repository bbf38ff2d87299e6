import { loadPlanConfig, readNamedFile, type LoadPlanConfigOptions } from '../config/load-plan-config.js';
import { formatIssues } from '../config/format-issues.js';
import type { TargetCost } from '../config/parse-target-costs.js';
import type { Config } from '../config/schema.js';
import { BakePrintSchema, buildGraph, type BakePrint, type TargetGraph } from '../graph/index.js';
import { ConfigError, UsageError } from '../shared/errors.js';
import { readBuildxProblem } from './check-buildx-binary.js';
import type { RunBakePrint } from './executors/bake-print.js';
import { toBakePrintCommand } from './executors/buildx-command.js';

export interface PlanInputs {
  config: Config;
  graph: TargetGraph;
  print: BakePrint;
  costs: Map<string, TargetCost>;
  warnings: string[];
}

export interface LoadPlanInputsOptions extends LoadPlanConfigOptions {
  /** Runs `buildx bake --print` when fleet.yaml names a bake file; tests pass a fake. */
  runBakePrint?: RunBakePrint | undefined;
}

// Loaded on first use, so a saved print never loads execa.
const runRealBakePrint: RunBakePrint = async (options) =>
  (await import('./executors/bake-print.js')).runBakePrint(options);

function parseBakePrint(text: string, source: string): BakePrint {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(source, [
      `not JSON: ${(cause as Error).message}. Fix: save the output of \`docker buildx bake --print\`.`,
    ]);
  }
  const parsed = BakePrintSchema.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(source, formatIssues({ issues: parsed.error.issues, raw, source }));
  return parsed.data;
}

/** The bake print fleet.yaml names: a saved file is read; a bake file is printed by `runBakePrint`. */
async function loadBakePrint(
  config: Config,
  runBakePrint: RunBakePrint = runRealBakePrint,
): Promise<{ print: BakePrint; source: string }> {
  if (config.bakePrintPath) {
    const source = config.bakePrintPath;
    return {
      print: parseBakePrint(await readNamedFile(source, `bake print of ${config.arch}`), source),
      source,
    };
  }
  if (config.bakeFile) {
    const call = { bakeFile: config.bakeFile, targets: config.targets, buildx: config.buildx?.path };
    const problem = await readBuildxProblem(config.buildx);
    if (problem !== undefined) throw new UsageError(problem);
    const source = toBakePrintCommand(call).command;
    const text = await runBakePrint({ ...call, env: { [config.archVariable]: config.arch } });
    return { print: parseBakePrint(text, source), source };
  }
  throw new UsageError('no target graph: fleet.yaml sets neither bake.file nor bake.print', {
    hint: 'pass --bake-json FILE or set bake.print in fleet.yaml',
  });
}

/** Every planned target needs a build line and a cache line. */
function findMissingCosts(
  graph: TargetGraph,
  costs: ReadonlyMap<string, TargetCost>,
  source: string,
): string[] {
  return graph.targets.flatMap((target) => {
    const cost = costs.get(target);
    return [
      ...(cost?.buildSeconds === undefined
        ? [
            `${source}: no \`build ${target} <seconds>\` line. Fix: add one (or run \`rocm-perf costs --from RUN\`).`,
          ]
        : []),
      ...(cost?.cacheBytes === undefined
        ? [`${source}: no \`cache ${target} <bytes>\` line. Fix: add one (bytes from a warm, pushing run).`]
        : []),
    ];
  });
}

// Shared by plan, cold, warm and bench: fleet.yaml + target-costs (config/) + the bake print → graph and costs.
export async function loadPlanInputs(options: LoadPlanInputsOptions): Promise<PlanInputs> {
  const { config, costs, warnings } = await loadPlanConfig(options);
  const { print, source } = await loadBakePrint(config, options.runBakePrint);
  const built = buildGraph({ print, requested: config.targets, source });
  if (!built.graph) throw new ConfigError(source, built.errors);
  const missing = findMissingCosts(built.graph, costs, config.costsPath);
  if (missing.length > 0) throw new ConfigError(config.costsPath, missing);
  return { config, graph: built.graph, print, costs, warnings };
}
