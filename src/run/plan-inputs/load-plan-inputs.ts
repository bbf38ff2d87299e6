import {
  loadPlanConfig,
  readNamedFile,
  type LoadPlanConfigOptions,
  type PlanConfig,
  formatIssues,
  type TargetCost,
  type Config,
} from '../../config/index.js';
import {
  BAKE_PRINT_FIX,
  parseBakePrint,
  buildGraph,
  findUnknownNames,
  listRequestableNames,
  type BakePrint,
  type TargetGraph,
} from '../../graph/index.js';
import { renderDidYouMean } from '../../shared/find-nearest.js';
import { ConfigError, UsageError } from '../../shared/errors.js';
import type { RunBakePrint } from '../executors/index.js';
import { runBakePrintLazily } from '../executors/load-lazily.js';
import { toBakePrintCommand } from '../executors/buildx-command.js';
import { readBuildxProblem } from '../executors/check-buildx-binary.js';

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

function readBakePrint(text: string, source: string): BakePrint {
  const read = parseBakePrint(text);
  if ('print' in read) return read.print;
  if ('notJson' in read)
    throw new ConfigError(source, [`not JSON: ${read.notJson}. Fix: ${BAKE_PRINT_FIX}.`]);
  throw new ConfigError(source, formatIssues({ issues: read.issues, raw: read.raw, source }));
}

/** The bake print fleet.yaml names: a saved file is read; a bake file is printed by `runBakePrint`. */
export async function loadBakePrint(
  { config, origins }: Pick<PlanConfig, 'config' | 'origins'>,
  runBakePrint: RunBakePrint = runBakePrintLazily, // loaded on first use: a saved print never loads execa
): Promise<{ print: BakePrint; source: string }> {
  if (config.bakePrintPath) {
    const source = config.bakePrintPath;
    const text = await readNamedFile({
      file: source,
      what: 'bake print',
      flag: '--bake-json',
      origin: origins.bakeJson,
      arch: config.arch,
      archOrigin: origins.arch,
    });
    return { print: readBakePrint(text, source), source };
  }
  if (config.bakeFile) {
    const call = { bakeFile: config.bakeFile, targets: config.targets, buildx: config.buildx?.path };
    const problem = await readBuildxProblem(config.buildx);
    if (problem !== undefined) throw new UsageError(problem);
    const source = toBakePrintCommand(call).command;
    const text = await runBakePrint({ ...call, env: { [config.archVariable]: config.arch } });
    return { print: readBakePrint(text, source), source };
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

/**
 * Requested names the bake graph lacks, named as the user gave them: `--targets nope` or PERF_TARGETS (a usage
 * error, exit 2), or fleet.yaml's `targets:` (a config error); with "did you mean" and the names there are.
 */
function toUnknownTargetsError({
  unknown,
  known,
  origin,
  config,
  source,
}: {
  unknown: readonly string[];
  known: readonly string[];
  origin: string | undefined;
  config: Config;
  source: string;
}): Error {
  const each = unknown.map(
    (name) => `\`${name}\`${renderDidYouMean(name, known).replace(/^ Did/, ' (did').replace(/\?$/, '?)')}`,
  );
  const what = `no target or group ${each.join(', ')} in the bake graph`;
  const fix = `use targets or groups of ${source}: ${known.join(', ')}, or \`all\``;
  if (origin !== undefined) return new UsageError(`${origin}: ${what}`, { hint: fix });
  return new ConfigError(config.source, [`${config.source}: targets: ${what}. Fix: ${fix}.`]);
}

/** A costs line for a target the bake graph does not have: a typo or a renamed target; plan warns and goes on. */
function findStaleCostLines({
  costs,
  print,
  costsPath,
}: {
  costs: ReadonlyMap<string, TargetCost>;
  print: BakePrint;
  costsPath: string;
}): string[] {
  const targets = Object.keys(print.target);
  return [...costs.entries()]
    .filter(([name]) => print.target[name] === undefined)
    .map(([name, cost]) => {
      const line = cost.buildLine ?? cost.warmBuildLine ?? cost.cacheLine;
      const near = renderDidYouMean(name, targets);
      return `${costsPath}${line === undefined ? '' : `:${line}`}: \`${name}\` is not a target of the bake graph, so this line is not used.${near} Fix: correct the name, or delete the line if the target is gone.`;
    });
}

// Shared by plan, cold, warm and bench: fleet.yaml + target-costs (config/) + the bake print → graph and costs.
export async function loadPlanInputs(options: LoadPlanInputsOptions): Promise<PlanInputs> {
  const planConfig = await loadPlanConfig(options);
  const { config, costs, origins } = planConfig;
  const { print, source } = await loadBakePrint(planConfig, options.runBakePrint);
  const unknown = findUnknownNames(print, config.targets);
  if (unknown.length > 0)
    throw toUnknownTargetsError({
      unknown,
      known: listRequestableNames(print),
      origin: origins.targets,
      config,
      source,
    });
  const warnings = [
    ...planConfig.warnings,
    ...findStaleCostLines({ costs, print, costsPath: config.costsPath }),
  ];
  const built = buildGraph({ print, requested: config.targets, source });
  if (!built.graph) throw new ConfigError(source, built.errors);
  const missing = findMissingCosts(built.graph, costs, config.costsPath);
  if (missing.length > 0) throw new ConfigError(config.costsPath, missing);
  return { config, graph: built.graph, print, costs, warnings };
}
