import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { orderTopologically } from '../../../graph/index.js';
import type { Clock } from '../../../shared/clock.js';
import type { Logger } from '../../../shared/logger.js';
import { RemoteCommandError } from '../../../shared/errors.js';
import type { FleetNode } from '../../../config/index.js';
import { findImageInputs, type ImageInput } from './find-image-inputs.js';
import { renderImageRef } from '../../registry/index.js';
import { type RunContext, toTargetOverrides } from '../context/index.js';
import type { runBake } from '../../executors/index.js';
import { toSharedBakeOptions } from './dispatch-queues.js';
import { errorMessage } from '../../../shared/error-message.js';

// Images the run's targets build FROM that the registry lacks are built and pushed before the
// measured run: warm (caches on) and pushed even under cold, and not sampled — cold is a claim about
// the wheels measured, not their inputs.

export interface BootstrapPlan {
  /** Producer targets to build, dependencies first. */
  targets: string[];
  /** Each missing image and who needs it, for run.json and the log. */
  missing: ImageInput[];
  problems: string[];
}

export type ManifestExists = (repository: string, reference: string) => Promise<boolean>;

/** Walks the inputs of the run's targets, then of every producer that must be built, until closed. */
export async function findBootstrapPlan(
  context: Pick<RunContext, 'print' | 'graph' | 'settings'>,
  manifestExists: ManifestExists,
): Promise<BootstrapPlan> {
  const { print, graph, settings } = context;
  const inRun = new Set(graph.targets);
  const producers = new Set<string>();
  const missing: ImageInput[] = [];
  const problems: string[] = [];
  const checked = new Set<string>();
  const producerDeps: Record<string, string[]> = {};
  let frontier: readonly string[] = graph.targets;
  while (frontier.length > 0) {
    const found = findImageInputs({
      print,
      targets: frontier,
      inRun,
      liveNamespace: settings.liveNamespace,
      namespace: settings.namespace,
    });
    problems.push(...found.problems);
    const next: string[] = [];
    for (const input of found.inputs) {
      const key = renderImageRef(input.ref);
      if (checked.has(key)) continue;
      checked.add(key);
      let exists: boolean;
      try {
        exists = await manifestExists(input.ref.repository, input.ref.reference);
      } catch (error) {
        problems.push(`cannot check ${key} in the registry: ${errorMessage(error)}`);
        continue;
      }
      if (exists) continue;
      if (input.producer === undefined || inRun.has(input.producer)) {
        problems.push(
          `the registry lacks ${key} (needed by ${input.neededBy.join(', ')}) and no bake target builds it. Fix: push it, or add a bake target that tags it`,
        );
        continue;
      }
      missing.push(input);
      for (const user of input.neededBy)
        if (producers.has(user)) (producerDeps[user] ??= []).push(input.producer);
      if (!producers.has(input.producer)) next.push(input.producer);
      producers.add(input.producer);
    }
    frontier = next;
  }
  const targets = [...producers].sort();
  const deps = Object.fromEntries(
    targets.map((target) => [target, [...new Set(producerDeps[target] ?? [])].sort()]),
  );
  return { targets: orderTopologically({ targets, deps, externalDeps: {} }), missing, problems };
}

/** The node with the fastest uplink pushes bootstrap images; ties by name. */
function pickBootstrapNode(nodes: readonly FleetNode[]): FleetNode {
  const sorted = [...nodes].sort((a, b) => b.linkMbps - a.linkMbps || a.name.localeCompare(b.name));
  return sorted[0] as FleetNode;
}

/** One bootstrap build: what, where, and when (the workstation's clock). */
export interface BootstrapBuild {
  target: string;
  node: string;
  startedAtMs: number;
  finishedAtMs: number;
}

export interface RunBootstrapOptions {
  context: RunContext;
  clock: Clock;
  targets: readonly string[];
  bake: typeof runBake;
  signal: AbortSignal;
  logger: Logger;
  onTarget?: (target: string, node: string) => void;
}

/**
 * Builds and pushes each producer in order on one node, and says when each ran; throws RemoteCommandError on the
 * first failure.
 */
export async function runBootstrap({
  context,
  clock,
  targets,
  bake,
  signal,
  logger,
  onTarget,
}: RunBootstrapOptions): Promise<BootstrapBuild[]> {
  if (targets.length === 0) return [];
  const dir = path.join(context.runDir, 'bootstrap');
  await mkdir(dir, { recursive: true });
  const node = pickBootstrapNode(context.config.nodes);
  const built: BootstrapBuild[] = [];
  for (const target of targets) {
    if (signal.aborted) break;
    onTarget?.(target, node.name);
    const startedAtMs = clock.nowMs();
    logger.info({ phase: 'bootstrap', target, node: node.name }, 'bootstrap build started');
    const outcome = await bake({
      builder: node.builder,
      target,
      metadataFile: path.join(dir, `meta-${target}.json`),
      statusFile: path.join(dir, `status-${target}.jsonl`),
      ...toSharedBakeOptions(context),
      noCache: false,
      clearCacheTo: false,
      overrides: toTargetOverrides(context, target, false),
      signal,
    });
    logger.info(
      { phase: 'bootstrap', target, ok: outcome.ok, exitCode: outcome.exitCode, command: outcome.command },
      'bootstrap build finished',
    );
    if (signal.aborted) break;
    if (!outcome.ok) {
      throw new RemoteCommandError(
        {
          host: `${node.name} (bootstrap of ${target})`,
          command: outcome.command,
          exitCode: outcome.exitCode ?? undefined,
          stderrTail: outcome.errorTail,
        },
        {
          hint: `nothing was measured; see ${path.join(dir, `status-${target}.jsonl`)} and fix the build of ${target}`,
        },
      );
    }
    built.push({ target, node: node.name, startedAtMs, finishedAtMs: clock.nowMs() });
  }
  return built;
}
