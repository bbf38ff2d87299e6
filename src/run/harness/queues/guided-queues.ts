import type { Clock } from '../../../shared/clock.js';
import type { Executor } from '../../executors/index.js';
import { runOneJob, skipReason, type QueueEvent, type SettledOutcome } from './node-queue.js';
import { errorMessage } from '../../../shared/error-message.js';

// Plan-guided dispatch (`--dispatch guided`): event-driven instead of one loop per node. Whenever a target starts
// or settles, every idle node is asked, in node-name order, which ready target it takes now (the injected
// `choose`, normally the plan's `chooseGuidedTarget`), until no node takes one. While a node sits idle beside
// ready targets and something runs, the nodes are asked again every `recheckMs`: a target overrunning its plan
// sends no event, and the work queued behind it should not wait for it. A failure skips its dependents
// (transitively) at once; an abort skips everything not started and waits for the running builds to be
// cancelled. No I/O here: the world arrives through the Executor, the Clock and `choose`.

interface StartedJob {
  node: string;
  startedAtMs: number;
  /** Present once the target settled (ok or failed). */
  finishedAtMs?: number;
}

/** @internal */
export interface GuidedSnapshot {
  idleNode: string;
  /** Not started, not skipped, every in-run wait finished ok; in queue order. */
  readyTargets: string[];
  nowMs: number;
  /** Every target started so far, running or settled. */
  started: Readonly<Record<string, StartedJob>>;
  /** Targets that will never run (a dependency failed). */
  skippedTargets: string[];
}

/** The target an idle node starts now, or null to wait for the next event. */
export type ChooseNext = (snapshot: GuidedSnapshot) => { target: string; reason: string } | null;

export interface RunGuidedQueuesOptions {
  /** node → targets in the plan's order: the guide, and where a target is reported when it never starts. */
  queues: Readonly<Record<string, readonly string[]>>;
  /** Every node that may take work (a node with an empty queue too). Default: the queues' nodes. */
  nodes?: readonly string[];
  /** target → in-run waits; anything not queued resolves from the registry. */
  deps: Readonly<Record<string, readonly string[]>>;
  executor: Executor;
  clock: Clock;
  signal: AbortSignal;
  choose: ChooseNext;
  onEvent?: (event: QueueEvent) => void;
  /** How often idle nodes are asked again while ready targets wait and something runs; default 1000 ms. */
  recheckMs?: number;
  /** Calls `wake` after `ms` (default: setTimeout); returns the cancel. Tests pass their simulated clock's. */
  wakeAfter?: WakeAfter;
}

type WakeAfter = (ms: number, wake: () => void) => () => void;

const wakeAfterTimeout: WakeAfter = (ms, wake) => {
  const timer = setTimeout(wake, ms);
  return () => clearTimeout(timer);
};

interface GuidedRun {
  options: RunGuidedQueuesOptions;
  plannedNode: Map<string, string>;
  order: string[];
  nodes: string[];
  outcomes: Record<string, SettledOutcome>;
  started: Record<string, StartedJob>;
  busy: Set<string>;
  /** Why nothing more will be started (a policy error or a stall), once known. */
  stopped: string | undefined;
  /** Cancels the pending re-ask, while one is scheduled. */
  recheck: (() => void) | undefined;
  done: () => void;
}

const inRunDeps = (run: GuidedRun, target: string) =>
  (run.options.deps[target] ?? []).filter((dep) => run.plannedNode.has(dep));
const isOpen = (run: GuidedRun, target: string) =>
  run.started[target] === undefined && run.outcomes[target] === undefined;

function settle(run: GuidedRun, target: string, outcome: SettledOutcome): void {
  run.outcomes[target] = outcome;
  run.options.onEvent?.({ type: 'settled', target, outcome });
}

/** Skips every open target that can no longer run: stopping, or a dependency that did not finish ok. */
function skipBlocked(run: GuidedRun): void {
  const stopping = run.options.signal.aborted ? 'interrupted' : run.stopped;
  for (let changed = true; changed;) {
    changed = false;
    for (const target of run.order) {
      if (!isOpen(run, target)) continue;
      const settledDeps = inRunDeps(run, target).flatMap((dep) =>
        run.outcomes[dep] ? [[dep, run.outcomes[dep]] as [string, SettledOutcome]] : [],
      );
      const reason = stopping ?? skipReason(settledDeps);
      if (reason === undefined) continue;
      settle(run, target, { status: 'skipped', node: run.plannedNode.get(target)!, reason });
      changed = true;
    }
  }
}

function findReady(run: GuidedRun): string[] {
  return run.order.filter(
    (target) =>
      isOpen(run, target) && inRunDeps(run, target).every((dep) => run.outcomes[dep]?.status === 'ok'),
  );
}

function snapshotOf(run: GuidedRun, idleNode: string, readyTargets: string[]): GuidedSnapshot {
  const skippedTargets = run.order.filter((target) => run.outcomes[target]?.status === 'skipped');
  return { idleNode, readyTargets, nowMs: run.options.clock.nowMs(), started: run.started, skippedTargets };
}

function launch(run: GuidedRun, target: string, node: string, reason: string): void {
  const { executor, clock, signal, onEvent } = run.options;
  run.busy.add(node);
  run.started[target] = { node, startedAtMs: clock.nowMs() };
  void runOneJob({ target, node }, { executor, clock, signal, onEvent, reason }).then((outcome) => {
    run.busy.delete(node);
    run.started[target] = {
      ...run.started[target]!,
      finishedAtMs: 'finishedAtMs' in outcome ? outcome.finishedAtMs : clock.nowMs(),
    };
    settle(run, target, outcome);
    pump(run);
  });
}

/** One round of asking: every idle node in name order, again until none takes a target. */
function offerWork(run: GuidedRun): void {
  for (let changed = true; changed && !run.options.signal.aborted && run.stopped === undefined;) {
    changed = false;
    for (const node of run.nodes) {
      if (run.busy.has(node)) continue;
      const ready = findReady(run);
      if (ready.length === 0) return;
      let choice: ReturnType<ChooseNext>;
      try {
        choice = run.options.choose(snapshotOf(run, node, ready));
      } catch (error) {
        run.stopped = `not started: guided dispatch failed (${errorMessage(error)})`;
        return;
      }
      if (choice === null) continue;
      if (!ready.includes(choice.target)) {
        run.stopped = `not started: guided dispatch chose ${choice.target}, which is not ready`;
        return;
      }
      launch(run, choice.target, node, choice.reason);
      changed = true;
    }
  }
}

function pump(run: GuidedRun): void {
  skipBlocked(run);
  offerWork(run);
  if (run.busy.size === 0 && run.order.some((target) => isOpen(run, target))) {
    run.stopped ??=
      'not started: guided dispatch stalled (no node would take a ready target and nothing was running)';
    skipBlocked(run);
  }
  if (Object.keys(run.outcomes).length === run.order.length) return run.done();
  scheduleRecheck(run);
}

/** Asks again later when a node idles beside ready targets while others run (nothing else would wake it). */
function scheduleRecheck(run: GuidedRun): void {
  if (run.recheck !== undefined || run.options.signal.aborted || run.stopped !== undefined) return;
  const idle = run.nodes.some((node) => !run.busy.has(node));
  if (!idle || run.busy.size === 0 || findReady(run).length === 0) return;
  const wakeAfter = run.options.wakeAfter ?? wakeAfterTimeout;
  run.recheck = wakeAfter(run.options.recheckMs ?? 1000, () => {
    run.recheck = undefined;
    pump(run);
  });
}

export function runGuidedQueues(options: RunGuidedQueuesOptions): Promise<Record<string, SettledOutcome>> {
  const plannedNode = new Map(
    Object.entries(options.queues).flatMap(([node, targets]) =>
      targets.map((target) => [target, node] as const),
    ),
  );
  const nodes = [...new Set([...(options.nodes ?? []), ...Object.keys(options.queues)])].sort();
  return new Promise((resolve) => {
    const run: GuidedRun = {
      options,
      plannedNode,
      order: [...plannedNode.keys()],
      nodes,
      outcomes: {},
      started: {},
      busy: new Set(),
      stopped: undefined,
      recheck: undefined,
      done: () => {
        run.recheck?.();
        run.recheck = undefined;
        options.signal.removeEventListener('abort', onAbort);
        resolve(run.outcomes);
      },
    };
    const onAbort = () => pump(run);
    options.signal.addEventListener('abort', onAbort);
    pump(run);
  });
}
