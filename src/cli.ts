import { CommanderError } from 'commander';
import { ExitCode, FileAccessError } from './shared/errors.js';
import { formatCliError } from './shared/format-cli-error.js';
import { createProgram } from './program.js';

// The only catch in the program: known errors print `error:` and `hint:`; unknown ones print a stack.

function reportError(error: unknown, debug: boolean): number {
  if (error instanceof CommanderError) {
    if (
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help'
    ) {
      return ExitCode.ok;
    }
    return ExitCode.fatal;
  }
  const { lines, exitCode } = formatCliError(error, { debug });
  for (const line of lines) console.error(line);
  return exitCode;
}

/**
 * stdout closed early (`| head`) ends the command quietly; stdout on a full disk is one error line. Either way the
 * stream's error is handled here rather than crashing with Node's stack.
 */
function watchStdout(debug: boolean): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? ExitCode.ok);
    const what = error.code === 'ENOSPC' ? 'no space left on the device it goes to' : error.message;
    const failure = new FileAccessError('-', `cannot write to standard output: ${what}`, {
      cause: error,
      hint: 'send the output somewhere with room (a pipe, or a file on another disk)',
    });
    process.exit(reportError(failure, debug));
  });
}

/** `rocm-perf` alone: the help on stderr, and exit 2, as for any other line that names no command to run. */
function reportNoCommand(): number {
  process.stderr.write(createProgram().helpInformation());
  console.error('error: no command given');
  console.error('hint: name one, e.g. `rocm-perf plan`; the list is above');
  return ExitCode.fatal;
}

async function main(argv: string[]): Promise<void> {
  const debug = argv.includes('--debug');
  watchStdout(debug);
  if (argv.length === 0) {
    process.exitCode = reportNoCommand();
    return;
  }
  try {
    await createProgram().parseAsync(argv, { from: 'user' });
  } catch (error) {
    process.exitCode = reportError(error, debug);
  }
}

await main(process.argv.slice(2));
