import {
  runHarnessCommand,
  type HarnessCommandContext,
  type HarnessCommandOptions,
} from './run-harness-command.js';

// `rocm-perf bench`: what each target costs: one target at a time across the fleet, with an isolated sccache prefix.
export function runBenchCommand(
  options: HarnessCommandOptions,
  context?: HarnessCommandContext,
): Promise<void> {
  return runHarnessCommand('bench', options, context);
}
