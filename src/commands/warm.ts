import {
  runHarnessCommand,
  type HarnessCommandContext,
  type HarnessCommandOptions,
} from './run-harness-command.js';

// `rocm-perf warm`: the build you actually run: caches on, pushes, cache export kept and measured as upload.
export function runWarmCommand(
  options: HarnessCommandOptions,
  context?: HarnessCommandContext,
): Promise<void> {
  return runHarnessCommand('warm', options, context);
}
