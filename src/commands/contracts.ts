import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import {
  CONTRACT_PAIRS,
  renderContractsReport,
  runContracts,
  type CliCommandSpec,
  type ContractPair,
  type ContractPaths,
  type SourceLocation,
} from '../contracts/index.js';
import { ExitCode, UsageError } from '../shared/errors.js';
import { createProgram } from '../program.js';
import type { CommonOptions } from './options.js';

export interface ContractsCommandOptions extends CommonOptions {
  repo?: string;
  conf?: string;
  costs?: string;
  bakeJson?: string;
  makefile?: string;
  schemaJson?: string;
  zotConfig?: string;
  remote: boolean;
  deployedConf: string;
  only?: string;
  verbose: boolean;
}

const PROGRAM_AT: SourceLocation = { file: 'src/program.ts', line: undefined };

/** The CLI as createProgram() defines it, read without running any action. */
export function listCliCommands(program: Command = createProgram()): {
  commands: CliCommandSpec[];
  envVars: Map<string, SourceLocation>;
} {
  const envVars = new Map<string, SourceLocation>();
  const commands = program.commands.map((command) => {
    for (const option of command.options) if (option.envVar) envVars.set(option.envVar, PROGRAM_AT);
    const flags = command.options.flatMap((option) => (option.long ? [option.long] : []));
    return {
      name: command.name(),
      flags: [...flags, '--help'],
      built: !command.description().startsWith('(not built yet)'),
    };
  });
  return { commands, envVars };
}

function parseOnly(value: string | undefined): ContractPair[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(/[\s,]+/).filter(Boolean);
  const unknown = names.filter((name) => !CONTRACT_PAIRS.includes(name as ContractPair));
  if (unknown.length > 0)
    throw new UsageError(`--only: unknown pair(s) ${unknown.join(', ')}`, {
      hint: `use ${CONTRACT_PAIRS.join(', ')}`,
    });
  return names as ContractPair[];
}

function existingPath(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const absolute = path.resolve(value);
  if (!existsSync(absolute))
    throw new UsageError(`${flag} ${value}: no such file or directory`, {
      hint: `check the path given to ${flag}`,
    });
  return absolute;
}

function toPaths(options: ContractsCommandOptions, fleetFromDefault: boolean): Partial<ContractPaths> {
  return {
    fleet: fleetFromDefault ? undefined : existingPath('--fleet', options.fleet),
    nginxConf: existingPath('--conf', options.conf),
    costs: existingPath('--costs', options.costs),
    bakeJson: existingPath('--bake-json', options.bakeJson),
    makefile: existingPath('--makefile', options.makefile),
    schemaJson: existingPath('--schema-json', options.schemaJson),
  };
}

// Thin: flags → runContracts → print; exit 1 when any pair disagrees.
export async function runContractsCommand(
  options: ContractsCommandOptions,
  { fleetFromDefault = false } = {},
): Promise<void> {
  // Each schema is parsed a handful of times in this short process: zod's JIT compile would cost more than it saves.
  z.config({ jitless: true });
  const repoDir = existingPath('--repo', options.repo ?? process.cwd()) ?? process.cwd();
  const { commands, envVars } = listCliCommands();
  const report = await runContracts({
    repoDir,
    paths: toPaths(options, fleetFromDefault),
    zotConfigPath: existingPath('--zot-config', options.zotConfig),
    remote: options.remote ? { deployedConfPath: options.deployedConf } : undefined,
    cli: { commands, programAt: PROGRAM_AT, extraEnvReads: envVars },
    only: parseOnly(options.only),
  });
  if (options.json) console.log(JSON.stringify(report, null, 2));
  else process.stdout.write(renderContractsReport(report, { verbose: options.verbose }));
  if (!report.ok) process.exitCode = ExitCode.failures;
}
