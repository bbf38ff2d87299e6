import { readFile } from 'node:fs/promises';
import { ConfigError, UsageError } from '../shared/errors.js';
import { BakePrintSchema, buildGraph, type BakePrint, type TargetGraph } from '../graph/index.js';
import { runBakePrint } from '../run/executors/bake-print.js';
import { formatIssues } from './format-issues.js';
import { loadConfig } from './load-config.js';
import { parseTargetCosts, type TargetCost } from './parse-target-costs.js';
import { mergeOverrides, readEnvOverrides, type ConfigOverrides } from './resolve-config.js';
import type { Config } from './schema.js';

export interface PlanInputs {
  config: Config;
  graph: TargetGraph;
  print: BakePrint;
  costs: Map<string, TargetCost>;
  warnings: string[];
}

export interface LoadPlanInputsOptions {
  fleetPath: string;
  flags?: ConfigOverrides;
  env?: Readonly<Record<string, string | undefined>>;
}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    throw new UsageError(`cannot read ${what} ${path}: ${(cause as Error).message}`, { cause });
  }
}

export async function loadBakePrint(config: Config): Promise<{ print: BakePrint; source: string }> {
  let text: string;
  let source: string;
  if (config.bakePrintPath) {
    source = config.bakePrintPath;
    text = await readText(source, 'bake print');
  } else if (config.bakeFile) {
    source = `docker buildx bake -f ${config.bakeFile} --print`;
    text = await runBakePrint({ bakeFile: config.bakeFile, targets: config.targets });
  } else {
    throw new UsageError('no target graph: fleet.yaml sets neither bake.file nor bake.print', {
      hint: 'pass --bake-json FILE or set bake.print in fleet.yaml',
    });
  }
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
  return { print: parsed.data, source };
}

/** Every planned target needs a build line and a cache line. */
export function findMissingCosts(
  graph: TargetGraph,
  costs: ReadonlyMap<string, TargetCost>,
  source: string,
): string[] {
  const errors: string[] = [];
  for (const target of graph.targets) {
    const cost = costs.get(target);
    if (cost?.buildSeconds === undefined)
      errors.push(
        `${source}: no \`build ${target} <seconds>\` line. Fix: add one (or run \`rocm-perf costs --from RUN\`).`,
      );
    if (cost?.cacheBytes === undefined)
      errors.push(
        `${source}: no \`cache ${target} <bytes>\` line. Fix: add one (bytes from a warm, pushing run).`,
      );
  }
  return errors;
}

// I/O shell shared by plan, cold, warm and bench: fleet.yaml + target-costs + bake print → graph and costs.
export async function loadPlanInputs({
  fleetPath,
  flags = {},
  env = process.env,
}: LoadPlanInputsOptions): Promise<PlanInputs> {
  const overrides = mergeOverrides(readEnvOverrides(env), flags);
  const { config, warnings } = await loadConfig({ fleetPath, overrides });
  const costsText = await readText(config.costsPath, 'target costs');
  const parsedCosts = parseTargetCosts(costsText, config.costsPath);
  if (parsedCosts.errors.length > 0) throw new ConfigError(config.costsPath, parsedCosts.errors);
  const { print, source } = await loadBakePrint(config);
  const built = buildGraph({ print, requested: config.targets, source });
  if (!built.graph) throw new ConfigError(source, built.errors);
  const missing = findMissingCosts(built.graph, parsedCosts.costs, config.costsPath);
  if (missing.length > 0) throw new ConfigError(config.costsPath, missing);
  return { config, graph: built.graph, print, costs: parsedCosts.costs, warnings };
}
