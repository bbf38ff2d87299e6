import { runHarness, type HarnessEffects } from '../run/harness/index.js';
import type { Harness } from '../artifacts/index.js';
import { readCliEnv, readSshAgent } from './flags/read-cli-env.js';
import { toHarnessEnv, toPlanInputOverrides, type HarnessValues } from './flags/index.js';
import { HARNESS_LOG_POLL_INTERVAL_MS, toHarnessDispatch } from './flags/harness-flags.js';
import type { RunSummary } from '../summary/index.js';
import { buildHarnessSummary, writeHarnessSummary } from './harness-summary.js';

// `rocm-perf cold|warm|bench` (one definition, commands/flags/harness-flags.ts): flags → runHarness, with
// SIGINT/SIGTERM turned into a clean stop; the run ends with its summary (docs/summary.md), then the run dir as
// the last stdout line (or the --json document).

export interface HarnessCommandContext {
  /** The CLI's environment (program.ts reads it once); a test passes its own. */
  env: Readonly<Record<string, string | undefined>>;
  effects?: Partial<HarnessEffects>;
  /** Tests pass their own signal instead of the process's SIGINT/SIGTERM. */
  signal?: AbortSignal;
}

function listenForSignals(controller: AbortController): () => void {
  const handler = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      console.error(`${signal} again: already stopping; finishing the finalize so nothing collected is lost`);
      return;
    }
    console.error(`${signal}: stop launching, cancelling running builds, then finalizing the run`);
    controller.abort(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

export async function runHarnessCommand(
  harness: Harness,
  options: HarnessValues,
  context: HarnessCommandContext,
): Promise<void> {
  const controller = new AbortController();
  const signal = context.signal ?? controller.signal;
  const stopListening = context.signal ? () => undefined : listenForSignals(controller);
  const env = readCliEnv(context.env);
  let summary: RunSummary | undefined;
  try {
    const result = await runHarness({
      harness,
      fleetPath: options.fleet,
      flags: toPlanInputOverrides(options),
      root: options.root,
      strategy: options.strategy,
      planPath: options.plan,
      dispatch: toHarnessDispatch(options),
      placeFor: options.placeFor,
      draws: options.draws,
      env,
      sshAgent: readSshAgent(env),
      ...toHarnessEnv(env),
      signal,
      sampleIntervalMs: options.sampleIntervalMs,
      logPollIntervalMs: HARNESS_LOG_POLL_INTERVAL_MS,
      logLevel: options.logLevel,
      ...(context.effects ? { effects: context.effects } : {}),
      // Also when an error stopped the run (it is rethrown after): a failed run gets its summary too.
      onFinalized: async (finished) => {
        summary = buildHarnessSummary(finished, env, options.root);
        await writeHarnessSummary(summary, { env, json: options.json });
      },
    });
    if (options.json)
      console.log(
        JSON.stringify(
          {
            runDir: result.runDir,
            status: result.run.status,
            exitCode: result.exitCode,
            targets: result.run.targets,
            summary,
          },
          null,
          2,
        ),
      );
    else console.log(result.runDir);
    process.exitCode = result.exitCode;
  } finally {
    stopListening();
  }
}
