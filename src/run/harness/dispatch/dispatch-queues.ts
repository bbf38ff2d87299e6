import path from 'node:path';
import type { Clock } from '../../../shared/clock.js';
import type { Logger } from '../../../shared/logger.js';
import type { CreateBuildxExecutorOptions, SharedBakeOptions, Executor } from '../../executors/index.js';
import { type RunContext, toTargetOverrides } from '../context/index.js';
import {
  createGuidedChooser,
  type QueueEvent,
  runGuidedQueues,
  runNodeQueues,
  type SettledOutcome,
} from '../queues/index.js';
import type { Progress } from '../progress/index.js';
import { readBuildMetadata, type RunFileWriter } from '../record/index.js';
import type { TraceCollector } from '../measure/index.js';

// Phase 4, the measured run: every node's queue through buildx (fixed queues, or plan-guided dispatch), run.json
// kept current with the node each target actually runs on, each finished target's trace fetched in the background.

/**
 * Environment every build gets: the run's namespace, published inputs (target: contexts only resolve within one
 * builder), the arch in the bake variable fleet.yaml names (bake reads variables from the environment), and
 * BUILDX_METADATA_PROVENANCE=max: buildx (≥ 0.14.0) copies the build's whole provenance attestation into the
 * metadata file (`buildx.build.provenance`), the evidence of docs/cache-debug.md.
 */
function toBuildEnv(context: RunContext): Record<string, string> {
  return {
    REGISTRY_NAME: context.settings.namespace,
    PUBLISHED_INPUTS: '1',
    [context.config.archVariable]: context.config.arch,
    BUILDX_METADATA_PROVENANCE: 'max',
  };
}

/**
 * The bake options every target of the run shares, measured or bootstrap (which turns the caches back on):
 * the bake file, the buildx, the run's cache flags and sccache prefix, push, the fleet's directory and the env.
 */
export function toSharedBakeOptions(context: RunContext): SharedBakeOptions {
  const { settings } = context;
  return {
    bakeFile: context.config.bakeFile,
    buildx: context.config.buildx?.path,
    noCache: settings.noCache,
    clearCacheTo: settings.clearCacheTo,
    sccachePrefix: settings.overrideSccachePrefix ? settings.sccachePrefix : undefined,
    push: true,
    cwd: path.dirname(context.fleetPath),
    env: toBuildEnv(context),
  };
}

/**
 * What the buildx executor (executors/buildx-executor.ts) takes from the run context: where the run dir is, each
 * node's builder, the bake options every target shares, each target's overrides, and the metadata file's build ref.
 */
export function toBuildxExecutorOptions(
  context: RunContext,
): Pick<
  CreateBuildxExecutorOptions,
  'runDir' | 'builders' | 'shared' | 'toOverrides' | 'readBuildRef' | 'digests'
> {
  const { settings } = context;
  return {
    runDir: context.runDir,
    builders: new Map(context.config.nodes.map((node) => [node.name, node.builder])),
    shared: toSharedBakeOptions(context),
    toOverrides: (target) => toTargetOverrides(context, target, settings.clearCacheTo),
    readBuildRef: async (file, target) => (await readBuildMetadata(file, target))?.['buildx.build.ref'],
    digests: context.digests,
  };
}

export interface DispatchQueuesOptions {
  context: RunContext;
  executor: Executor;
  clock: Clock;
  signal: AbortSignal;
  logger: Logger;
  progress: Progress;
  runFile: RunFileWriter;
  traces: TraceCollector;
}

export async function dispatchQueues(
  options: DispatchQueuesOptions,
): Promise<Record<string, SettledOutcome>> {
  const { context, runFile, logger, progress, traces } = options;
  const builders = new Map(context.config.nodes.map((node) => [node.name, node.builder]));
  const onEvent = (event: QueueEvent) => {
    progress.onQueueEvent(event);
    if (event.type === 'started') {
      const plannedNode = context.plan.targets[event.target]?.node;
      logger.info(
        { phase: 'measured', target: event.target, node: event.node, plannedNode, reason: event.reason },
        'target started',
      );
      runFile
        .update((run) => {
          run.targets[event.target] = { status: 'running', node: event.node, startedAtMs: event.atMs };
        })
        .catch((error: unknown) => logger.error({ err: error }, 'run.json update failed'));
      return;
    }
    const { outcome } = event;
    logger.info({ phase: 'measured', target: event.target, outcome }, `target ${outcome.status}`);
    runFile
      .update((run) => {
        run.targets[event.target] = outcome;
      })
      .catch((error: unknown) => logger.error({ err: error }, 'run.json update failed'));
    if (outcome.status !== 'skipped' && outcome.buildRef) {
      traces.collect({
        target: event.target,
        builder: builders.get(outcome.node) ?? outcome.node,
        buildRef: outcome.buildRef,
      });
    }
  };
  const common = {
    queues: context.plan.queues,
    deps: context.waitFor,
    executor: options.executor,
    clock: options.clock,
    signal: options.signal,
    onEvent,
  };
  if (context.dispatch === 'fixed')
    return runNodeQueues({ ...common, maxConcurrent: context.settings.maxConcurrent });
  const fleetNodes = new Set(context.config.nodes.map((node) => node.name));
  const nodes = context.plan.nodes.map((node) => node.name).filter((name) => fleetNodes.has(name));
  const choose = createGuidedChooser({ plan: context.plan, originMs: options.clock.nowMs() });
  return runGuidedQueues({ ...common, nodes, choose });
}

/** Every planned target skipped: Ctrl-C came before the measured run started. */
export function toInterruptedOutcomes(context: RunContext): Record<string, SettledOutcome> {
  return Object.fromEntries(
    Object.entries(context.plan.targets).map(([target, entry]) => [
      target,
      { status: 'skipped' as const, node: entry.node, reason: 'interrupted' },
    ]),
  );
}
