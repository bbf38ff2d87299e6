import { CommanderError } from 'commander';
import { ExitCode, isRocmPerfError } from './shared/errors.js';
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
  if (isRocmPerfError(error)) {
    console.error(`error: ${error.message}`);
    if (error.hint) console.error(`hint: ${error.hint}`);
    if (debug && error.stack) console.error(error.stack);
    return error.exitCode;
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  console.error('this is a bug in rocm-perf: please report it with the --debug output');
  return ExitCode.fatal;
}

async function main(argv: string[]): Promise<void> {
  const debug = argv.includes('--debug');
  try {
    await createProgram().parseAsync(argv, { from: 'user' });
  } catch (error) {
    process.exitCode = reportError(error, debug);
  }
}

await main(process.argv.slice(2));
