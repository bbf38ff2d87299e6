import type { Plan } from '../artifacts/index.js';
import type { Clock } from '../shared/clock.js';
import type { QueueEvent, SettledOutcome } from './node-queue.js';

// What a person watching the run sees on stderr: on a TTY a live per-node view (current target,
// elapsed vs planned, queue left, ETA from the remaining plan), redrawn every second; otherwise one
// plain line per event. run.log (pino) has everything either way.

export interface NodeProgress {
  node: string;
  current: { target: string; startedAtMs: number } | undefined;
  /** Targets of this node's queue not yet settled (the current one included). */
  left: string[];
  failed: number;
}

export interface ProgressState {
  nodes: NodeProgress[];
  phase: string;
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  return `${m}m${String(rest).padStart(2, '0')}s`;
}

const plannedSeconds = (plan: Plan, target: string) => {
  const entry = plan.targets[target];
  return entry ? entry.finishSeconds - entry.startSeconds : 0;
};

/** Seconds of planned work a node still has: the rest of the current target plus its queue. */
export function toRemainingSeconds(plan: Plan, node: NodeProgress, nowMs: number): number {
  let total = 0;
  for (const target of node.left) {
    if (node.current?.target === target)
      total += Math.max(0, plannedSeconds(plan, target) - (nowMs - node.current.startedAtMs) / 1000);
    else total += plannedSeconds(plan, target);
  }
  return total;
}

export function createProgressState(plan: Plan): ProgressState {
  const nodes = Object.keys(plan.queues)
    .sort()
    .map((node) => ({ node, current: undefined, left: [...(plan.queues[node] ?? [])], failed: 0 }));
  return { nodes, phase: 'starting' };
}

/** Under guided dispatch a target may start on another node than planned: its work moves to that node's row. */
function moveToRunningNode(
  state: ProgressState,
  event: Extract<QueueEvent, { type: 'started' }>,
): NodeProgress | undefined {
  const runner = state.nodes.find((entry) => entry.node === event.node);
  const planned = state.nodes.find((entry) => entry.left.includes(event.target));
  if (!runner || !planned || planned === runner) return planned;
  planned.left = planned.left.filter((target) => target !== event.target);
  runner.left = [event.target, ...runner.left];
  return runner;
}

/** Applies a queue event; returns the node it touched. */
export function applyQueueEvent(state: ProgressState, event: QueueEvent): NodeProgress | undefined {
  const node =
    event.type === 'started'
      ? moveToRunningNode(state, event)
      : state.nodes.find((entry) => entry.left.includes(event.target));
  if (!node) return undefined;
  if (event.type === 'started') node.current = { target: event.target, startedAtMs: event.atMs };
  else {
    node.left = node.left.filter((target) => target !== event.target);
    if (node.current?.target === event.target) node.current = undefined;
    if (event.outcome.status !== 'ok') node.failed += 1;
  }
  return node;
}

/** Pure: the live view's lines. */
export function renderProgressView({
  plan,
  state,
  nowMs,
}: {
  plan: Plan;
  state: ProgressState;
  nowMs: number;
}): string[] {
  const width = Math.max(4, ...state.nodes.map((node) => node.node.length));
  const lines = state.nodes.map((node) => {
    const name = node.node.padEnd(width);
    const eta = formatDuration(toRemainingSeconds(plan, node, nowMs));
    const failed = node.failed > 0 ? `  ${node.failed} failed/skipped` : '';
    if (!node.current)
      return `${name}  ${node.left.length === 0 ? 'done' : 'waiting'}  queue ${node.left.length} left  ETA ${eta}${failed}`;
    const elapsed = formatDuration((nowMs - node.current.startedAtMs) / 1000);
    const planned = formatDuration(plannedSeconds(plan, node.current.target));
    return `${name}  ${node.current.target}  ${elapsed} / ${planned} planned  queue ${node.left.length - 1} left  ETA ${eta}${failed}`;
  });
  const overall = Math.max(0, ...state.nodes.map((node) => toRemainingSeconds(plan, node, nowMs)));
  return [`${state.phase}  ETA ${formatDuration(overall)} (from the remaining plan)`, ...lines];
}

/** Pure: one plain line for a queue event. */
export function renderQueueEventLine({
  plan,
  event,
  node,
}: {
  plan: Plan;
  event: QueueEvent;
  node: NodeProgress | undefined;
}): string {
  const where = node?.node ?? '?';
  if (event.type === 'started') {
    const plannedNode = plan.targets[event.target]?.node;
    const moved =
      plannedNode !== undefined && plannedNode !== event.node
        ? `, moved from ${plannedNode} by guided dispatch (${event.reason ?? 'guided'})`
        : '';
    return `${where}: started ${event.target} (planned ${formatDuration(plannedSeconds(plan, event.target))}, ${Math.max(0, (node?.left.length ?? 1) - 1)} queued after it${moved})`;
  }
  return `${where}: ${describeOutcome(event.target, event.outcome)}`;
}

function describeOutcome(target: string, outcome: SettledOutcome): string {
  switch (outcome.status) {
    case 'ok':
      return `finished ${target} in ${formatDuration((outcome.finishedAtMs - outcome.startedAtMs) / 1000)}`;
    case 'failed':
      return `FAILED ${target} after ${formatDuration((outcome.finishedAtMs - outcome.startedAtMs) / 1000)}: ${outcome.error.split('\n').at(-1) ?? ''}`;
    case 'interrupted':
      return `interrupted ${target} after ${formatDuration((outcome.finishedAtMs - outcome.startedAtMs) / 1000)}`;
    case 'skipped':
      return `skipped ${target}: ${outcome.reason}`;
  }
}

export interface ProgressOptions {
  plan: Plan;
  clock: Clock;
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  /** Default: the stream's isTTY. */
  live?: boolean;
}

export interface Progress {
  phase(name: string): void;
  note(message: string): void;
  onQueueEvent(event: QueueEvent): void;
  stop(): void;
}

export function createProgress({
  plan,
  clock,
  stream,
  live = Boolean(stream.isTTY),
}: ProgressOptions): Progress {
  const state = createProgressState(plan);
  let drawn = 0;
  let timer: NodeJS.Timeout | undefined;
  const redraw = () => {
    const lines = renderProgressView({ plan, state, nowMs: clock.nowMs() });
    stream.write(
      `${drawn > 0 ? `\u001b[${drawn}F` : ''}${lines.map((line) => `\u001b[2K${line}`).join('\n')}\n`,
    );
    drawn = lines.length;
  };
  const print = (line: string) => {
    if (live && drawn > 0) stream.write(`\u001b[${drawn}F\u001b[J`);
    drawn = 0;
    stream.write(`${line}\n`);
    if (live && timer) redraw();
  };
  return {
    phase(name) {
      state.phase = name;
      print(`== ${name}`);
      if (live && name.startsWith('measured') && !timer) {
        timer = setInterval(redraw, 1000);
        timer.unref();
        redraw();
      }
    },
    note: print,
    onQueueEvent(event) {
      const node = applyQueueEvent(state, event);
      if (!live) print(renderQueueEventLine({ plan, event, node }));
      else if (event.type === 'settled' && event.outcome.status !== 'ok')
        print(renderQueueEventLine({ plan, event, node }));
      else if (timer) redraw();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      if (live) redraw();
    },
  };
}
