import {
  runHarnessCommand,
  type HarnessCommandContext,
  type HarnessCommandOptions,
} from './run-harness-command.js';

// `rocm-perf cold`: a full cold build: --no-cache, its own sccache prefix, pushed into the coldrun namespace, cache export off.
export function runColdCommand(
  options: HarnessCommandOptions,
  context?: HarnessCommandContext,
): Promise<void> {
  return runHarnessCommand('cold', options, context);
}
