import { runHarness, type HarnessDeps } from '../run/run-harness.js';
import { DispatchModeSchema, type DispatchMode, type Harness } from '../run/run-file.js';
import { UsageError } from '../shared/errors.js';
import { parseTargetList, type PlanInputOptions } from './options.js';

// Shared by cold, warm and bench: flags → runHarness, with SIGINT/SIGTERM turned into a clean stop.

export interface HarnessCommandOptions extends PlanInputOptions {
  root: string;
  strategy?: string;
  plan?: string;
  sampleIntervalMs?: string;
  /** cold and warm only: fixed (default) or guided. */
  dispatch?: string;
}

export interface HarnessCommandContext {
  env?: Readonly<Record<string, string | undefined>>;
  deps?: Partial<HarnessDeps>;
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

function parseDispatch(value: string | undefined): DispatchMode | undefined {
  if (value === undefined) return undefined;
  const parsed = DispatchModeSchema.safeParse(value);
  if (!parsed.success)
    throw new UsageError(`--dispatch ${value}: unknown dispatch mode`, {
      hint: 'use --dispatch fixed (each node runs its plan queue) or --dispatch guided',
    });
  return parsed.data;
}

export async function runHarnessCommand(
  harness: Harness,
  options: HarnessCommandOptions,
  context: HarnessCommandContext = {},
): Promise<void> {
  const controller = new AbortController();
  const signal = context.signal ?? controller.signal;
  const stopListening = context.signal ? () => undefined : listenForSignals(controller);
  try {
    const interval = options.sampleIntervalMs === undefined ? undefined : Number(options.sampleIntervalMs);
    const result = await runHarness({
      harness,
      fleetPath: options.fleet,
      flags: {
        arch: options.arch,
        targets: parseTargetList(options.targets),
        costsPath: options.costs,
        bakePrintPath: options.bakeJson,
      },
      root: options.root,
      strategy: options.strategy,
      planPath: options.plan,
      dispatch: parseDispatch(options.dispatch),
      env: context.env ?? process.env,
      signal,
      ...(interval !== undefined && Number.isFinite(interval) && interval > 0
        ? { sampleIntervalMs: interval }
        : {}),
      ...(context.deps ? { deps: context.deps } : {}),
    });
    if (options.json)
      console.log(
        JSON.stringify(
          {
            runDir: result.runDir,
            status: result.run.status,
            exitCode: result.exitCode,
            targets: result.run.targets,
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
