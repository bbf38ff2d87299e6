import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  renderContractsReport,
  runContracts,
  type CliCommandSpec,
  type ContractPaths,
  type SourceLocation,
} from '../contracts/index.js';
import type { ShimCall } from '../contracts/index.js';
import { ExitCode, UsageError } from '../shared/errors.js';
import {
  COMMANDS,
  OTHER_ENV_VARS,
  toLongFlag,
  type CommandSpec,
  type ContractsValues,
} from './flags/index.js';
import { parseCommandValues } from './flags/parse-command-values.js';
import { readCliEnv, readSshAgent, type CliEnv } from './flags/read-cli-env.js';

const PROGRAM_AT: SourceLocation = { file: 'src/commands/flags/index.ts', line: undefined };

/** The CLI as its flag tables define it: subcommands, their long flags, and the environment variables read. */
export function listCliCommands(): { commands: CliCommandSpec[]; envVars: Map<string, SourceLocation> } {
  const envVars = new Map<string, SourceLocation>(
    Object.entries(OTHER_ENV_VARS).map(([name, file]) => [name, { file, line: undefined }]),
  );
  const specs: CommandSpec[] = Object.values(COMMANDS);
  const commands = specs.map((command) => {
    const flags = Object.values(command.flags).flatMap((flag) => (flag ? [flag] : []));
    const flagEnv = flags.flatMap((flag) => (flag.env === undefined ? [] : [flag.env]));
    for (const name of flagEnv) envVars.set(name, PROGRAM_AT);
    return {
      name: command.name,
      flags: [...flags.map(toLongFlag), '--help'],
      env: [...flagEnv, ...command.env],
    };
  });
  return { commands, envVars };
}

/** `--fleet x --json` → commander-like option values by table key, with the table's defaults beneath. */
function toOptionValues(spec: CommandSpec, words: readonly string[]) {
  const options: Record<string, unknown> = {};
  const given = new Set<string>();
  for (const [key, flag] of Object.entries(spec.flags))
    if (flag) options[key] = flag.repeatable ? [] : flag.default;
  const args: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? '';
    const [long, inline] = word.split(/=(.*)/s) as [string, string | undefined];
    const entry = Object.entries(spec.flags).find(([, flag]) => flag && toLongFlag(flag) === long);
    if (!entry?.[1]) {
      if (!word.startsWith('-')) args.push(word);
      continue;
    }
    const [key, flag] = entry;
    const takesValue = /[<[]/.test(flag.flags);
    const value = takesValue ? (inline ?? words[(index += 1)]) : true;
    options[key] = flag.repeatable ? [...(options[key] as string[]), value] : value;
    given.add(key);
  }
  return { args, options, sourceOf: (key: string) => (given.has(key) ? 'cli' : 'default') };
}

/**
 * What the CLI would make of a shim's call: its own parse of the flags and the environment (empty variables unset),
 * and whether a fleet manifest the shim names (by --fleet or PERF_FLEET) is a file.
 */
export function resolveShimCall(call: ShimCall, cwd: string): string[] {
  const [name, ...words] = call.argv;
  const spec: CommandSpec | undefined = Object.values(COMMANDS).find((command) => command.name === name);
  if (!spec) return []; // named by the subcommand check
  const input = { ...toOptionValues(spec, words), env: readCliEnv(call.env) };
  let values: Record<string, unknown>;
  try {
    values = parseCommandValues(z, spec, input);
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
  const fleet = values.fleet;
  const named = input.sourceOf('fleet') === 'cli' || input.env.PERF_FLEET !== undefined;
  if (typeof fleet !== 'string' || !named) return [];
  const file = path.resolve(cwd, fleet);
  return existsSync(file) && statSync(file).isFile()
    ? []
    : [`--fleet ${JSON.stringify(fleet)}: ${file} is not a file`];
}

function existingPath(
  flag: string,
  value: string | undefined,
  kind: 'file' | 'folder' = 'file',
): string | undefined {
  if (value === undefined) return undefined;
  const absolute = path.resolve(value);
  if (!existsSync(absolute))
    throw new UsageError(`${flag} ${value}: no such file or directory`, {
      hint: `check the path given to ${flag}`,
    });
  // A folder where a file belongs would be read as a missing file, and its neighbours resolved outside the repo.
  if (statSync(absolute).isFile() !== (kind === 'file'))
    throw new UsageError(`${flag} ${value}: ${absolute} is ${kind === 'file' ? 'a folder' : 'a file'}`, {
      hint: `name a ${kind}`,
    });
  return absolute;
}

function toPaths(options: ContractsValues): Partial<ContractPaths> {
  return {
    fleet: existingPath('--fleet', options.fleet),
    nginxConf: existingPath('--conf', options.conf),
    costs: existingPath('--costs', options.costs),
    bakeJson: existingPath('--bake-json', options.bakeJson),
    makefile: existingPath('--makefile', options.makefile),
    schemaJson: existingPath('--schema-json', options.schemaJson),
    prometheusRules: existingPath('--prometheus-rules', options.prometheusRules),
  };
}

// Thin: flags → runContracts → print; exit 1 when any pair disagrees.
export async function runContractsCommand(options: ContractsValues, env: CliEnv = {}): Promise<void> {
  // Each schema is parsed a handful of times in this short process: zod's JIT compile would cost more than it saves.
  z.config({ jitless: true });
  const repoDir = existingPath('--repo', options.repo ?? process.cwd(), 'folder') ?? process.cwd();
  const { commands, envVars } = listCliCommands();
  const report = await runContracts({
    repoDir,
    paths: toPaths(options),
    zotConfigPath: existingPath('--zot-config', options.zotConfig),
    remote: options.remote
      ? { deployedConfPath: options.deployedConf, sshAgent: readSshAgent(env) }
      : undefined,
    cli: { commands, programAt: PROGRAM_AT, envReads: envVars, resolveCall: resolveShimCall },
    only: options.only,
    env,
  });
  if (options.json) console.log(JSON.stringify(report, null, 2));
  else process.stdout.write(renderContractsReport(report, { verbose: options.verbose }));
  if (!report.ok) process.exitCode = ExitCode.failures;
}
