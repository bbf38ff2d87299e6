import {
  BAKE_PRINT_FIX,
  parseBakePrint,
  buildGraph,
  parseComposable,
  type BakePrint,
  type BakeTarget,
} from '../graph/index.js';
import { parseTargetCosts, type TargetCost } from '../config/index.js';
import { at, createContractResult, type ContractProblem, type ContractResult } from './contract-result.js';
import { findJsonKeyLine, findLine } from './find-line.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';

// Pair 3: .builders/target-costs (producer) vs the bake graph the packer plans over (consumer).

export interface CheckTargetCostsOptions {
  costsText: string;
  costsPath: string;
  printText: string;
  printPath: string;
  /** fleet.yaml `targets`: what a run plans by default. */
  requested: readonly string[];
}

/** Below this a cache figure is surely not in bytes (a wheel image export is megabytes at least). */
const MIN_PLAUSIBLE_CACHE_BYTES = 1000;
const PARSER_FILE = 'src/config/parse-target-costs.ts';

interface Context {
  options: CheckTargetCostsOptions;
  print: BakePrint;
  costs: Map<string, TargetCost>;
  problems: ContractProblem[];
}

/** A target that writes to the registry: pushes its image or exports a cache. @internal */
export function isPushingTarget(target: BakeTarget): boolean {
  const outputs = (target.output ?? []).map(parseComposable);
  const caches = (target['cache-to'] ?? []).map(parseComposable);
  return (
    outputs.some((output) => output.push === 'true' || output.type === 'registry') ||
    caches.some((cache) => cache.type !== undefined && cache.type !== 'inline' && cache.type !== 'local')
  );
}

function lineOfLocated(message: string): number | undefined {
  const match = /^[^:]+:(\d+):/.exec(message);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function parsePrint(options: CheckTargetCostsOptions, problems: ContractProblem[]): BakePrint | undefined {
  const read = parseBakePrint(options.printText);
  if ('print' in read) return read.print;
  problems.push({
    message:
      'notJson' in read
        ? `${options.printPath}: not JSON (${read.notJson}). Fix: ${BAKE_PRINT_FIX}.`
        : `${options.printPath}: not a bake print: ${formatZodIssues(read.issues, { limit: Infinity, root: '' })}`,
    producer: at(options.costsPath),
    consumer: at(options.printPath),
  });
  return undefined;
}

function checkMissing(ctx: Context, planned: readonly string[]): void {
  const { costsPath, printPath, printText } = ctx.options;
  for (const target of planned) {
    const cost = ctx.costs.get(target);
    const consumer = at(printPath, findJsonKeyLine(printText, target, 'target'));
    if (cost?.buildSeconds === undefined) {
      ctx.problems.push({
        message: `target \`${target}\` is planned but has no \`build ${target} <seconds>\` line. Fix: add one (or run \`rocm-perf costs --from RUN\`).`,
        producer: at(costsPath),
        consumer,
      });
    }
    if (cost?.cacheBytes === undefined) {
      ctx.problems.push({
        message: `target \`${target}\` is planned but has no \`cache ${target} <bytes>\` line. Fix: add one, in bytes from a warm (pushing) run.`,
        producer: at(costsPath),
        consumer,
      });
    }
  }
}

function checkStale(ctx: Context): void {
  const { costsPath, printPath, printText } = ctx.options;
  for (const [target, cost] of ctx.costs) {
    if (ctx.print.target[target]) continue;
    for (const line of [cost.buildLine, cost.warmBuildLine, cost.cacheLine, cost.imageLine]) {
      if (line === undefined) continue;
      ctx.problems.push({
        message: `stale line for \`${target}\`: no such target in the bake graph. Fix: delete the line, or rename it to the target's new name.`,
        producer: at(costsPath, line),
        consumer: at(printPath, findLine(printText, '"target"')),
      });
    }
  }
}

function checkPlausible(ctx: Context): void {
  const { costsPath, printPath, printText } = ctx.options;
  for (const [target, cost] of ctx.costs) {
    const bakeTarget = ctx.print.target[target];
    if (!bakeTarget) continue;
    const consumer = at(printPath, findJsonKeyLine(printText, target, 'target'));
    if (cost.buildSeconds !== undefined && cost.buildSeconds < 1) {
      ctx.problems.push({
        message: `build ${target} ${cost.buildSeconds}: a build of under 1 s is not a measurement. Fix: take the seconds from a cold run (\`rocm-perf costs --from RUN\`).`,
        producer: at(costsPath, cost.buildLine),
        consumer,
      });
    }
    if (
      cost.cacheBytes !== undefined &&
      cost.cacheBytes < MIN_PLAUSIBLE_CACHE_BYTES &&
      isPushingTarget(bakeTarget)
    ) {
      ctx.problems.push({
        message: `cache ${target} ${cost.cacheBytes}: \`${target}\` pushes (output/cache-to), so its export cannot be ${cost.cacheBytes} bytes. Fix: write bytes (not MB/GB) from a warm, pushing run; a cold run's --no-push under-counts.`,
        producer: at(costsPath, cost.cacheLine),
        consumer,
      });
    }
  }
}

function noteUnrequested(ctx: Context, planned: readonly string[]): string[] {
  const plannedSet = new Set(planned);
  const uncosted = Object.keys(ctx.print.target).filter(
    (name) => !plannedSet.has(name) && ctx.costs.get(name)?.buildSeconds === undefined,
  );
  return uncosted.length === 0
    ? []
    : [
        `outside fleet.yaml's targets and without costs (\`--targets all\` would fail): ${uncosted.sort().join(', ')}`,
      ];
}

// Pure: every planned target has both lines, no line (warm-build included) names a vanished target, and the figures
// are plausible.
export function checkTargetCosts(options: CheckTargetCostsOptions): ContractResult {
  const title = `${options.costsPath} ↔ bake graph ${options.printPath}`;
  const problems: ContractProblem[] = [];
  const parsedCosts = parseTargetCosts(options.costsText, options.costsPath);
  for (const error of parsedCosts.errors)
    problems.push({
      message: error,
      producer: at(options.costsPath, lineOfLocated(error)),
      consumer: at(PARSER_FILE),
    });
  const print = parsePrint(options, problems);
  if (!print) return createContractResult({ pair: 'target-costs', title, problems });
  const built = buildGraph({ print, requested: options.requested, source: options.printPath });
  for (const error of built.errors)
    problems.push({ message: error, producer: at(options.costsPath), consumer: at(options.printPath) });
  const ctx: Context = { options, print, costs: parsedCosts.costs, problems };
  const planned = built.graph?.targets ?? [];
  checkMissing(ctx, planned);
  checkStale(ctx);
  checkPlausible(ctx);
  const warm = planned.filter((target) => parsedCosts.costs.get(target)?.warmBuildSeconds !== undefined);
  const notes = [
    `${planned.length} planned targets, ${parsedCosts.costs.size} costed`,
    `warm build figures for ${warm.length} of ${planned.length} planned targets (warm plans use cold ones for the rest)`,
    ...noteUnrequested(ctx, planned),
  ];
  return createContractResult({ pair: 'target-costs', title, problems, notes });
}
