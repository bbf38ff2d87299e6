// The `docker` test double's entry: `docker buildx bake|inspect|history|version` as buildx accepts them, plus the
// hidden `__fleet-bake-worker` the bake command runs inside a builder's namespace.
import { fleetStateEnvVar, readFleetState } from '../fleet-state.js';
import { runBakeCommand } from './bake-command.js';
import { runBakeWorker } from './bake-worker.js';
import { CliError, type CommandIo } from './cli-error.js';
import { findSubcommandIndex } from './find-subcommand.js';
import { runHistoryCommand } from './history-command.js';
import { runInspectCommand } from './inspect-command.js';
import { FlagError } from './parse-flags.js';

const missingBuildxCommands = new Set([
  'build',
  'create',
  'rm',
  'ls',
  'use',
  'stop',
  'prune',
  'du',
  'imagetools',
  'dial-stdio',
  'debug',
  'policy',
]);

const io: CommandIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  statePath: () => {
    const value = process.env[fleetStateEnvVar];
    if (!value)
      throw new CliError(
        `${fleetStateEnvVar} is not set: this \`docker\` is the rocm-perf fleet double; start the box with \`npm run fleet:up\` and export what it prints`,
      );
    return value;
  },
  isStdoutTty: process.stdout.isTTY === true,
};

async function runBuildx(argv: readonly string[]): Promise<number> {
  const index = findSubcommandIndex(argv, ['builder']);
  const sub = index === -1 ? undefined : argv[index];
  const rest = argv.filter((_, i) => i !== index);
  switch (sub) {
    case 'bake':
      return runBakeCommand(rest, io);
    case 'inspect':
      return runInspectCommand(rest, io);
    case 'history':
      return runHistoryCommand(rest, io);
    case 'version':
      io.out(
        `github.com/docker/buildx ${readFleetState(io.statePath()).buildxVersion} rocm-perf-fleet-double\n`,
      );
      return 0;
    case undefined:
      io.out('Usage:  docker buildx [OPTIONS] COMMAND\n');
      return 0;
    default:
      if (missingBuildxCommands.has(sub))
        throw new CliError(
          `buildx ${sub} is a real buildx command the rocm-perf fleet double does not implement`,
        );
      throw new FlagError(`unknown command: docker buildx ${sub}`);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === '__fleet-bake-worker') return runBakeWorker(argv[1] ?? '');
  if (argv[0] === 'buildx') return runBuildx(argv.slice(1));
  if (argv[0]?.startsWith('-')) throw new FlagError(`unknown flag: ${argv[0].split('=')[0]}`);
  throw new CliError(
    `docker: '${argv[0] ?? ''}' is not a docker command (this is the rocm-perf fleet double: only \`docker buildx\` exists)`,
  );
}

function commandPath(argv: readonly string[]): string {
  if (argv[0] !== 'buildx') return 'docker';
  const rest = argv.slice(1);
  const index = findSubcommandIndex(rest, ['builder']);
  const sub = index === -1 ? undefined : rest[index];
  if (sub !== 'history') return `docker buildx${sub ? ` ${sub}` : ''}`;
  const after = rest.slice(index + 1);
  const hIndex = findSubcommandIndex(after, ['builder', 'format', 'addr']);
  return `docker buildx history${hIndex === -1 ? '' : ` ${after[hIndex]}`}`;
}

const argv = process.argv.slice(2);
main(argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof FlagError) io.err(`${message}\nSee '${commandPath(argv)} --help'.\n`);
    else io.err(`ERROR: ${message}\n`);
    process.exitCode = 1;
  },
);
