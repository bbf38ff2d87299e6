import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  renderContractsReport,
  runContracts,
  type CliCommandSpec,
  type ContractPaths,
  type SourceLocation,
} from '../contracts/index.js';
import { ExitCode, UsageError } from '../shared/errors.js';
import {
  COMMANDS,
  OTHER_ENV_VARS,
  toLongFlag,
  type CommandSpec,
  type ContractsValues,
} from './flags/index.js';

const PROGRAM_AT: SourceLocation = { file: 'src/commands/flags/index.ts', line: undefined };

/** The CLI as its flag tables define it: subcommands, their long flags, and the environment variables read. */
export function listCliCommands(): { commands: CliCommandSpec[]; envVars: Map<string, SourceLocation> } {
  const envVars = new Map<string, SourceLocation>(
    Object.entries(OTHER_ENV_VARS).map(([name, file]) => [name, { file, line: undefined }]),
  );
  const specs: CommandSpec[] = Object.values(COMMANDS);
  const commands = specs.map((command) => {
    const flags = Object.values(command.flags).flatMap((flag) => (flag ? [flag] : []));
    for (const flag of flags) if (flag.env !== undefined) envVars.set(flag.env, PROGRAM_AT);
    return { name: command.name, flags: [...flags.map(toLongFlag), '--help'] };
  });
  return { commands, envVars };
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

function toPaths(options: ContractsValues): Partial<ContractPaths> {
  return {
    fleet: existingPath('--fleet', options.fleet),
    nginxConf: existingPath('--conf', options.conf),
    costs: existingPath('--costs', options.costs),
    bakeJson: existingPath('--bake-json', options.bakeJson),
    makefile: existingPath('--makefile', options.makefile),
    schemaJson: existingPath('--schema-json', options.schemaJson),
  };
}

// Thin: flags → runContracts → print; exit 1 when any pair disagrees.
export async function runContractsCommand(options: ContractsValues): Promise<void> {
  // Each schema is parsed a handful of times in this short process: zod's JIT compile would cost more than it saves.
  z.config({ jitless: true });
  const repoDir = existingPath('--repo', options.repo ?? process.cwd()) ?? process.cwd();
  const { commands, envVars } = listCliCommands();
  const report = await runContracts({
    repoDir,
    paths: toPaths(options),
    zotConfigPath: existingPath('--zot-config', options.zotConfig),
    remote: options.remote ? { deployedConfPath: options.deployedConf } : undefined,
    cli: { commands, programAt: PROGRAM_AT, envReads: envVars },
    only: options.only,
  });
  if (options.json) console.log(JSON.stringify(report, null, 2));
  else process.stdout.write(renderContractsReport(report, { verbose: options.verbose }));
  if (!report.ok) process.exitCode = ExitCode.failures;
}
