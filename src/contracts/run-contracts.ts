import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { renderFleetJsonSchema, parseYamlWithLines, type ParsedYaml } from '../config/index.js';
import { checkFleetSchema } from './check-fleet-schema.js';
import {
  checkMakefileShims,
  findCliVariable,
  findInvocations,
  type CliCommandSpec,
} from './check-makefile-shims.js';
import { parseMakefile } from './parse-makefile.js';
import { runMakefileShims, type ShimCall, type ShimRunRequest } from './run-makefile-shims.js';
import { checkRegistryLog } from './check-registry-log.js';
import { checkPrometheusRules } from './check-prometheus-rules.js';
import { METRIC_FAMILIES } from '../serve/metrics/metric-catalog.js';
import { checkTargetCosts } from './check-target-costs.js';
import {
  at,
  createContractResult,
  createSkippedResult,
  type ContractPair,
  type ContractResult,
  type SourceLocation,
} from './contract-result.js';
import { readFleetFacts, type FleetFacts } from './read-fleet-facts.js';
import { runNginxContracts } from './run-nginx-contracts.js';

// The runner: read every file a user or a host provides, run the pure checks, collect one result per pair.

export interface ContractPaths {
  fleet: string;
  nginxConf: string;
  makefile: string;
  schemaJson: string;
  /** Default: fleet.yaml's `costs`. */
  costs: string | undefined;
  /** Default: fleet.yaml's `bake.print`. */
  bakeJson: string | undefined;
  /** Prometheus rules for serve's /metrics; default contrib/prometheus/rocm-perf-rules.yml (skipped when absent). */
  prometheusRules: string;
}

export interface RunContractsOptions {
  repoDir: string;
  paths?: Partial<ContractPaths>;
  zotConfigPath?: string | undefined;
  /** Also check the nginx conf deployed on the cache host, fetched over ssh (with this ssh agent, SSH_AUTH_SOCK). */
  remote?: { deployedConfPath: string; sshAgent: string | undefined } | undefined;
  /** The CLI as its flag tables define it (the command layer lists it; core never imports commander). */
  cli: {
    commands: CliCommandSpec[];
    programAt: SourceLocation;
    /** Environment variables the CLI reads, with where. */
    envReads: ReadonlyMap<string, SourceLocation>;
    /** What the CLI makes of one call from a shim (its flag tables, its reading of the environment). */
    resolveCall?: (call: ShimCall, cwd: string) => string[];
  };
  /** Run the shims through make with a stub CLI (default true; false checks the recipes as text). */
  runMake?: boolean;
  /** The CLI's environment (handed down: the core reads no process.env); make gets only its PATH and HOME. */
  env: Readonly<Record<string, string | undefined>>;
  only?: readonly ContractPair[] | undefined;
}

export interface ContractsReport {
  version: 1;
  ok: boolean;
  repoDir: string;
  results: ContractResult[];
}

interface Context {
  repoDir: string;
  paths: ContractPaths;
  fleetText: string | undefined;
  parsedFleet: ParsedYaml;
  facts: FleetFacts;
  show: (absolute: string) => string;
}

function readOptional(file: string): string | undefined {
  return existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8') : undefined;
}

function missing(pair: ContractPair, title: string, file: string, consumer: SourceLocation): ContractResult {
  const problem = {
    message: `${file} is missing. Fix: restore it, or point the matching flag at it.`,
    producer: at(file),
    consumer,
  };
  return createContractResult({ pair, title, problems: [problem] });
}

function checkCostsPair(ctx: Context): ContractResult {
  const costsPath = ctx.paths.costs ?? ctx.facts.costsPath;
  const printPath = ctx.paths.bakeJson ?? ctx.facts.bakePrintPath;
  const title = `${ctx.show(costsPath)} ↔ bake graph`;
  if (printPath === undefined)
    return createSkippedResult('target-costs', title, 'fleet.yaml sets no bake.print; pass --bake-json FILE');
  const costsText = readOptional(costsPath);
  const printText = readOptional(printPath);
  if (costsText === undefined)
    return missing('target-costs', title, ctx.show(costsPath), at(ctx.show(printPath)));
  if (printText === undefined)
    return missing('target-costs', title, ctx.show(printPath), at(ctx.show(costsPath)));
  return checkTargetCosts({
    costsText,
    costsPath: ctx.show(costsPath),
    printText,
    printPath: ctx.show(printPath),
    requested: ctx.facts.targets,
  });
}

function checkRegistryPair(ctx: Context, zotConfigPath: string | undefined): ContractResult {
  const title = `Zot config ↔ ${ctx.show(ctx.paths.fleet)} registry.log`;
  if (zotConfigPath === undefined)
    return createSkippedResult(
      'registry-log',
      title,
      "no Zot config given; pass --zot-config FILE (the registry host's config.json)",
    );
  const zotConfigText = readFileSync(zotConfigPath, 'utf8');
  return checkRegistryLog({
    zotConfigText,
    zotConfigPath: ctx.show(zotConfigPath),
    fleet: { ...ctx.facts.registryLog, fleetPath: ctx.show(ctx.paths.fleet) },
  });
}

/** Each perf-* shim twice: bare, as a new user types it, and with its subcommand's variables given to make. */
function toShimRequests(makefileText: string, commands: readonly CliCommandSpec[]): ShimRunRequest[] {
  const makefile = parseMakefile(makefileText);
  const cliVariable = findCliVariable(makefile);
  if (cliVariable === undefined) return [];
  return makefile.rules
    .filter((rule) => rule.target.startsWith('perf-'))
    .flatMap((rule) => {
      const names = findInvocations(rule, cliVariable).flatMap(
        ({ subcommand }) => commands.find((command) => command.name === subcommand)?.env ?? [],
      );
      const given = Object.fromEntries(
        [...new Set(names)].map((name) => [name, `given-${name.toLowerCase()}`]),
      );
      const bare = { target: rule.target, prerequisites: rule.prerequisites, given: {} };
      return names.length === 0 ? [bare] : [bare, { ...bare, given }];
    });
}

async function checkMakefilePair(
  ctx: Context,
  cli: RunContractsOptions['cli'],
  runMake: boolean,
  env: RunContractsOptions['env'],
): Promise<ContractResult> {
  const makefileText = readOptional(ctx.paths.makefile);
  if (makefileText === undefined)
    return missing('makefile-shims', 'Makefile ↔ CLI', ctx.show(ctx.paths.makefile), cli.programAt);
  const makefileDir = path.dirname(ctx.paths.makefile);
  const isFile = (relative: string) => existsSync(path.resolve(makefileDir, relative));
  const cliVariable = findCliVariable(parseMakefile(makefileText));
  const runs =
    runMake && cliVariable !== undefined
      ? await runMakefileShims({
          makefilePath: ctx.paths.makefile,
          cliVariable,
          requests: toShimRequests(makefileText, cli.commands),
          env,
        })
      : undefined;
  const { resolveCall } = cli;
  return checkMakefileShims({
    makefileText,
    makefilePath: ctx.show(ctx.paths.makefile),
    commands: cli.commands,
    programAt: cli.programAt,
    envReads: cli.envReads,
    isFile,
    runs,
    ...(resolveCall ? { resolveCall: (call: ShimCall) => resolveCall(call, makefileDir) } : {}),
  });
}

function checkFleetPair(ctx: Context): ContractResult {
  const fleetPath = ctx.show(ctx.paths.fleet);
  if (ctx.fleetText === undefined)
    return missing('fleet-schema', `${fleetPath} ↔ schema`, fleetPath, at('src/config/schema.ts'));
  return checkFleetSchema({
    fleetText: ctx.fleetText,
    fleetPath,
    schemaJsonText: readOptional(ctx.paths.schemaJson),
    schemaJsonPath: ctx.show(ctx.paths.schemaJson),
    generatedSchemaText: renderFleetJsonSchema(),
    parsedFleet: ctx.parsedFleet,
  });
}

function checkPrometheusRulesPair(ctx: Context): ContractResult {
  const rulesPath = ctx.show(ctx.paths.prometheusRules);
  const rulesText = readOptional(ctx.paths.prometheusRules);
  if (rulesText === undefined)
    return createSkippedResult(
      'prometheus-rules',
      `${rulesPath} ↔ serve /metrics`,
      `no ${rulesPath}; pass --prometheus-rules FILE to check your alert rules against what serve exports`,
    );
  return checkPrometheusRules({
    rulesText,
    rulesPath,
    families: METRIC_FAMILIES,
    catalogAt: at('src/serve/metrics/metric-catalog.ts'),
  });
}

function resolvePaths(repoDir: string, given: Partial<ContractPaths>): ContractPaths {
  const resolve = (file: string | undefined, fallback: string) => path.resolve(repoDir, file ?? fallback);
  return {
    fleet: resolve(given.fleet, 'fleet.yaml'),
    nginxConf: resolve(given.nginxConf, '.builders/nginx-sccache.conf'),
    makefile: resolve(given.makefile, 'Makefile'),
    schemaJson: resolve(given.schemaJson, 'rocm-perf.schema.json'),
    prometheusRules: resolve(given.prometheusRules, 'contrib/prometheus/rocm-perf-rules.yml'),
    costs: given.costs === undefined ? undefined : path.resolve(repoDir, given.costs),
    bakeJson: given.bakeJson === undefined ? undefined : path.resolve(repoDir, given.bakeJson),
  };
}

function createContext(repoDir: string, given: Partial<ContractPaths>): Context {
  const paths = resolvePaths(repoDir, given);
  const fleetText = readOptional(paths.fleet);
  const show = (absolute: string) => {
    const relative = path.relative(repoDir, absolute);
    if (relative === '') return '.';
    return relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
  };
  const parsedFleet = parseYamlWithLines(fleetText ?? '', show(paths.fleet));
  return {
    repoDir,
    paths,
    fleetText,
    parsedFleet,
    facts: readFleetFacts(fleetText ?? '', paths.fleet, parsedFleet),
    show,
  };
}

// I/O shell: every pair, each independent of the others' failures.
export async function runContracts(options: RunContractsOptions): Promise<ContractsReport> {
  const repoDir = path.resolve(options.repoDir);
  const ctx = createContext(repoDir, options.paths ?? {});
  const wanted = (pair: ContractPair) =>
    options.only === undefined || options.only.length === 0 || options.only.includes(pair);
  const results: ContractResult[] = [];
  if (wanted('nginx-log-format') || wanted('nginx-deployed-conf')) {
    const nginx = await runNginxContracts({
      confPath: ctx.paths.nginxConf,
      repoDir,
      show: ctx.show,
      facts: ctx.facts,
      remote: options.remote,
    });
    results.push(...nginx.filter((result) => wanted(result.pair)));
  }
  if (wanted('registry-log')) results.push(checkRegistryPair(ctx, options.zotConfigPath));
  if (wanted('target-costs')) results.push(checkCostsPair(ctx));
  if (wanted('makefile-shims'))
    results.push(await checkMakefilePair(ctx, options.cli, options.runMake ?? true, options.env));
  if (wanted('fleet-schema')) results.push(checkFleetPair(ctx));
  if (wanted('prometheus-rules')) results.push(checkPrometheusRulesPair(ctx));
  return { version: 1, ok: results.every((result) => result.ok), repoDir, results };
}
