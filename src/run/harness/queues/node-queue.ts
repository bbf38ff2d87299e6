import type { Clock } from '../../../shared/clock.js';
import type { TargetOutcome } from '../../../artifacts/index.js';
import { errorMessage } from '../../../shared/error-message.js';
import type { ExecResult, Executor, QueueJob } from '../../executors/index.js';

// Dependency-ordered per-node queues. Each node runs its queue in order; a target starts when every
// dependency inside the run has settled ok. A failure skips its dependents; other queues go on.
// The world arrives through an injected Executor and Clock, so this file does no I/O.

export type SettledOutcome = Extract<TargetOutcome, { status: 'ok' | 'failed' | 'interrupted' | 'skipped' }>;

export type QueueEvent =
  /** `reason`: why guided dispatch chose this target for this node (absent under fixed queues). */
  | { type: 'started'; target: string; node: string; atMs: number; reason?: string }
  | { type: 'settled'; target: string; outcome: SettledOutcome };

export interface RunNodeQueuesOptions {
  /** node → targets in the order the plan fixed. */
  queues: Readonly<Record<string, readonly string[]>>;
  /** target → in-run dependencies; anything not queued resolves from the registry. */
  deps: Readonly<Record<string, readonly string[]>>;
  executor: Executor;
  clock: Clock;
  /** Abort = stop launching; running jobs get the signal and are cancelled. */
  signal: AbortSignal;
  /** 1 for bench: one target at a time across the fleet. Default: one per node. */
  maxConcurrent?: number;
  onEvent?: (event: QueueEvent) => void;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

function createDeferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A FIFO counting semaphore; `Infinity` slots means no limit. */
function createSlots(limit: number): { acquire(): Promise<void>; release(): void } {
  let free = limit;
  const waiters: (() => void)[] = [];
  return {
    acquire: () => {
      if (free > 0) {
        free -= 1;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    release: () => {
      const next = waiters.shift();
      if (next) next();
      else free += 1;
    },
  };
}

/**
 * Problems that would make the queues hang or lie: a target queued twice, or queues whose order
 * contradicts the dependencies (a head that waits on a target behind another head forever).
 */
export function findQueueProblems(
  queues: Readonly<Record<string, readonly string[]>>,
  deps: Readonly<Record<string, readonly string[]>>,
): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const [node, targets] of Object.entries(queues)) {
    for (const target of targets) {
      const other = seen.get(target);
      if (other !== undefined) problems.push(`target ${target} is queued on both ${other} and ${node}`);
      seen.set(target, node);
    }
  }
  if (problems.length > 0) return problems;
  const heads = new Map(Object.keys(queues).map((node) => [node, 0]));
  const done = new Set<string>();
  let progressed = true;
  while (progressed) {
    progressed = false;
    for (const [node, targets] of Object.entries(queues)) {
      const index = heads.get(node) ?? 0;
      const target = targets[index];
      if (target === undefined) continue;
      const ready = (deps[target] ?? []).every((dep) => done.has(dep) || !seen.has(dep));
      if (!ready) continue;
      done.add(target);
      heads.set(node, index + 1);
      progressed = true;
    }
  }
  for (const [node, targets] of Object.entries(queues)) {
    const stuck = targets[heads.get(node) ?? 0];
    if (stuck === undefined) continue;
    const waiting = (deps[stuck] ?? []).filter((dep) => seen.has(dep) && !done.has(dep));
    problems.push(
      `queue ${node} would wait forever: ${stuck} needs ${waiting.join(', ')}, which can never finish first`,
    );
  }
  return problems;
}

export function skipReason(depOutcomes: readonly [string, SettledOutcome][]): string | undefined {
  const bad = depOutcomes.find(([, outcome]) => outcome.status !== 'ok');
  if (!bad) return undefined;
  const [dep, outcome] = bad;
  if (outcome.status === 'skipped' && outcome.reason === 'interrupted') return 'interrupted';
  return `dependency ${dep} ${outcome.status === 'failed' ? 'failed' : 'was skipped'}`;
}

export interface RunOneJobOptions {
  executor: Executor;
  clock: Clock;
  signal: AbortSignal;
  onEvent?: ((event: QueueEvent) => void) | undefined;
  reason?: string | undefined;
}

/** Runs one job through the executor; emits `started` synchronously, before the executor is called. */
export async function runOneJob(job: QueueJob, options: RunOneJobOptions): Promise<SettledOutcome> {
  const { executor, clock, signal, onEvent } = options;
  const startedAtMs = clock.nowMs();
  onEvent?.({
    type: 'started',
    target: job.target,
    node: job.node,
    atMs: startedAtMs,
    ...(options.reason ? { reason: options.reason } : {}),
  });
  let result: ExecResult;
  try {
    result = await executor.run(job, { signal });
  } catch (error) {
    result = {
      ok: false,
      exitCode: null,
      error: `executor threw: ${errorMessage(error)}`,
    };
  }
  const finishedAtMs = clock.nowMs();
  const base = {
    node: job.node,
    startedAtMs,
    finishedAtMs,
    ...(result.buildRef ? { buildRef: result.buildRef } : {}),
  };
  if (result.ok) return { status: 'ok', ...base };
  // Cancelled by the interrupt, not failed: nothing says the build itself would have failed.
  if (signal.aborted)
    return { status: 'interrupted', ...base, error: `cancelled mid-build (${result.error})` };
  return { status: 'failed', ...base, exitCode: result.exitCode, error: result.error };
}

// Runs every node's queue concurrently; resolves when every queued target has an outcome.
export async function runNodeQueues(options: RunNodeQueuesOptions): Promise<Record<string, SettledOutcome>> {
  const { queues, deps, signal, onEvent } = options;
  const settled = new Map<string, Deferred<SettledOutcome>>();
  for (const targets of Object.values(queues))
    for (const target of targets) settled.set(target, createDeferred());
  const slots = createSlots(options.maxConcurrent ?? Number.POSITIVE_INFINITY);
  const outcomes: Record<string, SettledOutcome> = {};

  const settle = (target: string, outcome: SettledOutcome) => {
    outcomes[target] = outcome;
    onEvent?.({ type: 'settled', target, outcome });
    settled.get(target)?.resolve(outcome);
  };

  const runNode = async (node: string, targets: readonly string[]) => {
    for (const target of targets) {
      const inRun = (deps[target] ?? []).filter((dep) => settled.has(dep));
      const depOutcomes = await Promise.all(
        inRun.map(async (dep) => [dep, await settled.get(dep)!.promise] as [string, SettledOutcome]),
      );
      const reason = signal.aborted ? 'interrupted' : skipReason(depOutcomes);
      if (reason !== undefined) {
        settle(target, { status: 'skipped', node, reason });
        continue;
      }
      await slots.acquire();
      try {
        if (signal.aborted) settle(target, { status: 'skipped', node, reason: 'interrupted' });
        else settle(target, await runOneJob({ target, node }, options));
      } finally {
        slots.release();
      }
    }
  };

  await Promise.all(Object.entries(queues).map(([node, targets]) => runNode(node, targets)));
  return outcomes;
}
