import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import {
  COMMANDS,
  type CommandName,
  type CommandRunners,
  type CommandSpec,
  type CommandValues,
  type FlagSpec,
} from './commands/flags/index.js';
import type { Harness } from './artifacts/index.js';
import { renderCommandHelp } from './commands/flags/render-command-help.js';
import type { CliEnv } from './commands/flags/read-cli-env.js';
import { InternalError } from './shared/errors.js';

// The commander tree, built from the flag tables in commands/flags/. Each action parses its values through zod,
// then lazy-imports its command, so `--help` loads neither zod nor any command.

const runHarnessLazily =
  (harness: Harness) => async (values: CommandValues<(typeof COMMANDS)[Harness]>, env: CliEnv) =>
    (await import('./commands/harness.js')).runHarnessCommand(harness, values, { env });

const lazyRunners: CommandRunners = {
  plan: async (values, env) => (await import('./commands/plan.js')).runPlanCommand(values, { env }),
  contracts: async (values, env) =>
    (await import('./commands/contracts.js')).runContractsCommand(values, env),
  // report's chart thread starts before report's own modules load, so ECharts loads on it meanwhile; and V8 waits four
  // times its default before optimising a function, so report does not compile code it is about to stop running
  // (docs/startup.md).
  report: async (values) => {
    (await import('node:v8')).setFlagsFromString('--interrupt-budget=270336');
    const chartThread = (await import('./report/start-chart-thread.js')).startChartThread();
    return (await import('./commands/report.js')).runReportCommand(values, chartThread);
  },
  cold: runHarnessLazily('cold'),
  warm: runHarnessLazily('warm'),
  bench: runHarnessLazily('bench'),
  costs: async (values) => (await import('./commands/costs.js')).runCostsCommand(values),
  serve: async (values) => (await import('./commands/serve.js')).runServeCommand(values),
  publish: async (values, env) => (await import('./commands/publish.js')).runPublishCommand(values, env),
  diff: async (values) => (await import('./commands/diff.js')).runDiffCommand(values),
  advise: async (values) => (await import('./commands/advise.js')).runAdviseCommand(values),
  export: async (values) =>
    (await import('./commands/export.js')).runExportCommand(values, { serviceVersion: readPackageVersion() }),
  import: async (values) => (await import('./commands/import.js')).runImportCommand(values),
};

/** Commander accumulator for repeatable flags. */
function collectValues(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function toOption(key: string, flag: FlagSpec): Option {
  const option = new Option(flag.flags, flag.description);
  if (option.attributeName() !== key)
    throw new InternalError(`flag table key \`${key}\` is not commander's name for ${flag.flags}`);
  // No commander `.env()`: the environment is read once, in readCliEnv (an empty variable is not set).
  if (flag.repeatable) option.argParser(collectValues).default([]);
  else if (flag.default !== undefined) option.default(flag.default);
  if (flag.required) option.makeOptionMandatory();
  return option;
}

function addCommand<C extends CommandSpec>(
  program: Command,
  spec: C,
  run: (values: CommandValues<C>, env: CliEnv) => Promise<void>,
): void {
  const command = program
    .command(spec.name)
    .description(spec.description)
    // Commander prints its own `error:` line (unknown option, missing --lane, …); this is the hint after it.
    .showHelpAfterError(`hint: \`rocm-perf ${spec.name} --help\` lists its flags and arguments`);
  for (const argument of Object.values(spec.arguments))
    command.argument(argument.syntax, argument.description);
  for (const [key, flag] of Object.entries(spec.flags)) if (flag) command.addOption(toOption(key, flag));
  command.addHelpText('after', renderCommandHelp(spec));
  command.action(async () => {
    const { z } = await import('zod');
    const { parseCommandValues } = await import('./commands/flags/parse-command-values.js');
    const { readCliEnv } = await import('./commands/flags/read-cli-env.js');
    // The one read of process.env: every command gets this copy (flag values, and `env` for the rest).
    const env = readCliEnv(process.env);
    const values = parseCommandValues(z, spec, {
      args: command.processedArgs,
      options: command.opts(),
      sourceOf: (key) => command.getOptionValueSource(key),
      env,
    });
    await run(values, env);
  });
}

function addEachCommand<N extends CommandName>(program: Command, name: N, runners: CommandRunners): void {
  addCommand(program, COMMANDS[name], runners[name]);
}

/** package.json's version: one level up from src/ (tsx, tests) and from dist/ (installed) alike. */
function readPackageVersion(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/** The CLI; tests pass their own runners to see the parsed values without running anything. */
export function createProgram(runners: Partial<CommandRunners> = {}): Command {
  const program = new Command('rocm-perf')
    .description(
      'Build-fleet telemetry for the ROCm wheels: plan, run instrumented builds, report, serve, publish.',
    )
    .version(readPackageVersion())
    .showHelpAfterError('hint: `rocm-perf --help` lists the commands')
    .exitOverride();
  const all = { ...lazyRunners, ...runners };
  for (const name of Object.keys(COMMANDS) as CommandName[]) addEachCommand(program, name, all);
  return program;
}
