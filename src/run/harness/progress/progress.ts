import type { Plan } from '../../../artifacts/index.js';
import {
  forecastMakespan,
  renderForecast,
  type CostDistribution,
  type Forecast,
  type ForecastProgress,
} from '../../../plan/index.js';
import type { Clock } from '../../../shared/clock.js';
import type { QueueEvent, SettledOutcome } from '../queues/index.js';

// What a person watching the run sees on stderr: on a TTY a live per-node view (current target, elapsed vs planned,
// queue left, ETA), redrawn every second; otherwise one plain line per event. run.log (pino) has everything either
// way. Every ETA comes from the plan replayed from the run so far (the conditioned forecast: what finished, what
// runs and for how long, what waits on whom), never from plan − elapsed; after Ctrl-C there is none.

interface NodeProgress {
  node: string;
  current: { target: string; startedAtMs: number } | undefined;
  /** Targets of this node's queue not yet settled (the current one included). */
  left: string[];
  failed: number;
}

interface ProgressState {
  nodes: NodeProgress[];
  phase: string;
  /** When the measured run started (its first target), epoch ms: the forecast's time 0. */
  originMs: number | undefined;
  /** Every target that started: where, when, and when it settled. */
  started: Record<string, { node: string; startedAtMs: number; settledAtMs?: number }>;
  /** Set on Ctrl-C (or SIGTERM): the view then shows no ETA. */
  interrupted: boolean;
}

/** The replay's answer at one moment: when the run and each target are expected to end (p50), epoch ms. */
interface LiveEstimate {
  atMs: number;
  endMs: number;
  finishMs: Readonly<Record<string, number>>;
  /**
   * Running targets past every forecast draw (`isOverdue`): the replay only guessed their finish, so no ETA that
   * waits on them is shown. Absent or empty: none.
   */
  overdue?: readonly string[];
}

/**
 * A running target is overdue when, in at least this share of the replay's draws, every one of the 51 durations
 * drawn for it ended before now (the forecast then gives it 5 % more than it has run: a guess, not an estimate).
 * With the forecast's spread that is past about the 98.6th percentile of its duration (0.9865^51 ≈ 0.5); with a plan
 * that has no forecast (one draw, no spread), past its planned duration.
 */
const OVERDUE_SHARE = 0.5;

function isOverdue(share: number): boolean {
  return share >= OVERDUE_SHARE;
}

/**
 * The live view's coarse clock: whole seconds, `0m07s`, `4m05s`, `1h02m`. Not the one duration formatter
 * (shared/format-units.ts, `7.00s`, `1h02m03s`): a terminal line redrawn every second shows no hundredths, and these
 * are the strings users watch (issue 40 kept them).
 * @internal
 */
export function formatLiveDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  return `${m}m${String(rest).padStart(2, '0')}s`;
}

/** A countdown: whole seconds rounded up, so work that is left never reads 0m00s. */
const formatEta = (seconds: number) => formatLiveDuration(Math.ceil(Math.max(0, seconds)));

const plannedSeconds = (plan: Plan, target: string) => {
  const entry = plan.targets[target];
  return entry ? entry.finishSeconds - entry.startSeconds : 0;
};

/** Seconds from now until the node's last remaining target ends in the replay; undefined if the replay lacks one. */
function toNodeEtaSeconds(node: NodeProgress, estimate: LiveEstimate, nowMs: number): number | undefined {
  let endMs = nowMs;
  for (const target of node.left) {
    const finishMs = estimate.finishMs[target];
    if (finishMs === undefined) return undefined;
    endMs = Math.max(endMs, finishMs);
  }
  return (endMs - nowMs) / 1000;
}

/**
 * An estimate has run out when a node with work left (or the run) was due by now, or an overdue target has finished:
 * it must be replayed again.
 */
function isEstimateStale(state: ProgressState, estimate: LiveEstimate, nowMs: number): boolean {
  if (estimate.endMs <= nowMs && state.nodes.some((node) => node.left.length > 0)) return true;
  // A target it found overdue has finished since: what waited on it has an estimate again.
  if (estimate.overdue?.some((target) => state.started[target]?.settledAtMs !== undefined)) return true;
  return state.nodes.some(
    (node) => node.left.length > 0 && node.left.every((t) => (estimate.finishMs[t] ?? Infinity) <= nowMs),
  );
}

/** @internal */
export function createProgressState(plan: Plan): ProgressState {
  const nodes = Object.keys(plan.queues)
    .sort()
    .map((node) => ({ node, current: undefined, left: [...(plan.queues[node] ?? [])], failed: 0 }));
  return { nodes, phase: 'starting', originMs: undefined, started: {}, interrupted: false };
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

/** Applies a queue event; returns the node it touched. @internal */
export function applyQueueEvent(state: ProgressState, event: QueueEvent): NodeProgress | undefined {
  const node =
    event.type === 'started'
      ? moveToRunningNode(state, event)
      : state.nodes.find((entry) => entry.left.includes(event.target));
  if (event.type === 'started') {
    state.originMs ??= event.atMs;
    state.started[event.target] = { node: event.node, startedAtMs: event.atMs };
  } else {
    const entry = state.started[event.target];
    if (entry && 'finishedAtMs' in event.outcome) entry.settledAtMs = event.outcome.finishedAtMs;
  }
  if (!node) return undefined;
  if (event.type === 'started') node.current = { target: event.target, startedAtMs: event.atMs };
  else {
    node.left = node.left.filter((target) => target !== event.target);
    if (node.current?.target === event.target) node.current = undefined;
    if (event.outcome.status !== 'ok') node.failed += 1;
  }
  return node;
}

/** How often the live view may draw its forecast again (on the next redraw after a start or finish). */
const LIVE_FORECAST_EVERY_MS = 5_000;

/** Draws of the live view's forecast (drawn again after a start or finish, at most every LIVE_FORECAST_EVERY_MS). */
const LIVE_DRAWS = 400;

/**
 * The distributions the replay draws from: the plan's forecast's; without one (a plan made before forecasts), the
 * plan's own figures with no spread, so the replay is the plan itself re-run from the run so far (one draw).
 */
function toReplayDistributions(plan: Plan): { distributions: Map<string, CostDistribution>; draws: number } {
  if (plan.forecast)
    return { distributions: new Map(Object.entries(plan.forecast.distributions)), draws: LIVE_DRAWS };
  const nodes = new Map(plan.nodes.map((node) => [node.name, node]));
  const distributions = new Map(
    Object.entries(plan.targets).map(([name, t]): [string, CostDistribution] => {
      const node = nodes.get(t.node);
      return [
        name,
        {
          buildSeconds: t.buildSeconds * (node?.speed ?? 1),
          buildSigma: 0,
          buildRuns: 2,
          cacheBytes: t.exportSeconds * (node?.linkMbps ?? 0) * 1e6,
          cacheSigma: 0,
          cacheRuns: 2,
          setupSeconds: t.setupSeconds,
          setupSigma: 0,
          setupRuns: 2,
        },
      ];
    }),
  );
  return { distributions, draws: 1 };
}

/** The run so far as the forecast reads it: seconds from the first start (now, before any target started). */
function toForecastProgress(
  state: ProgressState,
  nowMs: number,
): { originMs: number; progress: ForecastProgress } {
  const originMs = state.originMs ?? nowMs;
  const seconds = (ms: number) => Math.max(0, (ms - originMs) / 1000);
  return {
    originMs,
    progress: {
      nowSeconds: seconds(nowMs),
      targets: Object.fromEntries(
        Object.entries(state.started).map(([name, entry]) => [
          name,
          {
            node: entry.node,
            startSeconds: seconds(entry.startedAtMs),
            finishSeconds: entry.settledAtMs === undefined ? undefined : seconds(entry.settledAtMs),
          },
        ]),
      ),
    },
  };
}

/** The plan replayed from the run so far: the conditioned forecast, and its p50s as epoch ms. @internal */
export function replayLive(
  plan: Plan,
  state: ProgressState,
  nowMs: number,
): { forecast: Forecast; estimate: LiveEstimate } {
  const { originMs, progress } = toForecastProgress(state, nowMs);
  const { distributions, draws } = toReplayDistributions(plan);
  const forecast = forecastMakespan({
    plan,
    distributions,
    policy: plan.forecast?.policy ?? 'fixed',
    draws,
    seed: plan.forecast?.seed ?? 1,
    progress,
  });
  const toMs = (seconds: number) => originMs + seconds * 1000;
  return {
    forecast,
    estimate: {
      atMs: nowMs,
      endMs: toMs(forecast.makespan.p50),
      finishMs: Object.fromEntries(
        Object.entries(forecast.targets).map(([name, t]) => [name, toMs(t.finish.p50)]),
      ),
      overdue: Object.entries(forecast.overdueShares ?? {})
        .filter(([, share]) => isOverdue(share))
        .map(([name]) => name)
        .sort(),
    },
  };
}

/** The overdue target `target` waits for, itself or through its plan's waits (deps, stage barriers); if any. */
function findOverdueWait(plan: Plan, overdue: readonly string[], target: string): string | undefined {
  const seen = new Set<string>();
  const visit = (name: string): string | undefined => {
    if (overdue.includes(name)) return name;
    if (seen.has(name)) return undefined;
    seen.add(name);
    for (const dep of plan.targets[name]?.waitFor ?? []) {
      const found = visit(dep);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(target);
}

/** The live forecast line from a conditioned forecast; undefined when the plan has none. */
function renderForecastLine(plan: Plan, live: Forecast): string | undefined {
  const forecast = plan.forecast;
  if (!forecast) return undefined;
  if (!forecast.banded)
    return `forecast: no band (${forecast.thinTargets.length} targets have fewer than 3 runs of history)`;
  const overdue = Object.entries(live.overdueShares ?? {}).filter(([, share]) => isOverdue(share));
  if (overdue.length > 0)
    return `forecast: no band while ${overdue.map(([name]) => name).join(', ')} ${overdue.length === 1 ? 'runs' : 'run'} past every forecast draw (the band would only guess when ${overdue.length === 1 ? 'it ends' : 'they end'})`;
  const now = live.conditionedAtSeconds ?? 0;
  // Time left, rounded up as the ETAs are (the header's ETA is this p50).
  const left = (at: number) => formatEta(at - now);
  return `forecast: done in ${left(live.makespan.p10)}–${left(live.makespan.p90)} (p50 ${left(live.makespan.p50)}); planned band p10 ${formatLiveDuration(forecast.makespan.p10)} · p90 ${formatLiveDuration(forecast.makespan.p90)} of run time`;
}

/**
 * The plan's forecast conditioned on the run so far, as the live view's line; undefined without a forecast.
 * @internal
 */
export function renderLiveForecast(plan: Plan, state: ProgressState, nowMs: number): string | undefined {
  if (!plan.forecast || state.originMs === undefined) return undefined;
  return renderForecastLine(plan, replayLive(plan, state, nowMs).forecast);
}

/** The live view never stops a run: a replay that cannot be made is a line saying so, and no ETA. */
function tryReplay(
  plan: Plan,
  state: ProgressState,
  nowMs: number,
): { forecastLine: string | undefined; estimate: LiveEstimate | undefined } {
  try {
    const { forecast, estimate } = replayLive(plan, state, nowMs);
    return {
      forecastLine: state.originMs === undefined ? undefined : renderForecastLine(plan, forecast),
      estimate,
    };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      forecastLine: plan.forecast
        ? `forecast: unavailable (${why})`
        : `ETA unavailable: the plan cannot be replayed (${why})`,
      estimate: undefined,
    };
  }
}

/** A running target is marked over its plan from this many times its planned duration. */
const OVERRUN_SHOWN = 1.5;

/**
 * The run's ETA: 0m00s only when no node has work left; `due` when the replay had it done by now; `overdue`, naming
 * them, while a target runs past every forecast draw (the run cannot end before it, and when it ends is a guess).
 */
function formatRunEta(
  state: ProgressState,
  estimate: LiveEstimate,
  nowMs: number,
  running: readonly string[],
): string {
  if (state.nodes.every((node) => node.left.length === 0)) return formatLiveDuration(0);
  const overdue = state.nodes.flatMap((node) =>
    node.current && running.includes(node.current.target) ? [`${node.current.target} on ${node.node}`] : [],
  );
  if (overdue.length > 0) return `overdue: ${overdue.join(', ')} past every forecast draw`;
  return estimate.endMs <= nowMs ? 'due' : formatEta((estimate.endMs - nowMs) / 1000);
}

/**
 * The estimate's overdue targets that are still running now (one that has since finished is not overdue, though
 * the next replay has not been drawn yet).
 */
function findRunningOverdue(state: ProgressState, estimate: LiveEstimate | undefined): string[] {
  return (estimate?.overdue ?? []).filter((target) => {
    const started = state.started[target];
    return started !== undefined && started.settledAtMs === undefined;
  });
}

/** A node's ETA: overdue while its target runs past every draw, unknown while its work waits on such a target. */
function formatNodeEta({
  plan,
  node,
  estimate,
  nowMs,
  overdue,
}: {
  plan: Plan;
  node: NodeProgress;
  estimate: LiveEstimate;
  nowMs: number;
  overdue: readonly string[];
}): string {
  if (node.current && overdue.includes(node.current.target)) return 'overdue';
  for (const target of node.left) {
    const waitsOn = findOverdueWait(plan, overdue, target);
    if (waitsOn !== undefined) return `unknown (waits on overdue ${waitsOn})`;
  }
  const seconds = toNodeEtaSeconds(node, estimate, nowMs);
  // Work left that the last replay had done by now: due, not 0m00s (the next redraw replays it).
  return seconds === undefined ? '—' : seconds <= 0 ? 'due' : formatEta(seconds);
}

/** "10× over" once a target has run well past its planned time. */
function describeOverrun(elapsedSeconds: number, plannedSecondsOfTarget: number): string {
  if (plannedSecondsOfTarget <= 0 || elapsedSeconds < OVERRUN_SHOWN * plannedSecondsOfTarget) return '';
  const ratio = elapsedSeconds / plannedSecondsOfTarget;
  return ` (${ratio >= 10 ? Math.round(ratio) : Math.round(ratio * 10) / 10}× over)`;
}

/** Pure: the live view's lines. @internal */
export function renderProgressView({
  plan,
  state,
  nowMs,
  forecastLine,
  estimate,
}: {
  plan: Plan;
  state: ProgressState;
  nowMs: number;
  /** The forecast line, computed with the estimate. */
  forecastLine?: string | undefined;
  /** The last replay of the plan from the run so far; without one, no ETA is shown. */
  estimate?: LiveEstimate | undefined;
}): string[] {
  const width = Math.max(4, ...state.nodes.map((node) => node.node.length));
  const overdue = findRunningOverdue(state, estimate);
  const etaOf = (node: NodeProgress) => {
    if (state.interrupted) return node.left.length === 0 ? '' : '  ETA — (interrupted)';
    if (node.left.length === 0) return '';
    return `  ETA ${estimate ? formatNodeEta({ plan, node, estimate, nowMs, overdue }) : '—'}`;
  };
  const lines = state.nodes.map((node) => {
    const name = node.node.padEnd(width);
    const failed = node.failed > 0 ? `  ${node.failed} failed/skipped` : '';
    if (!node.current)
      return `${name}  ${node.left.length === 0 ? 'done' : 'waiting'}  queue ${node.left.length} left${etaOf(node)}${failed}`;
    const elapsedSeconds = (nowMs - node.current.startedAtMs) / 1000;
    const planned = plannedSeconds(plan, node.current.target);
    return `${name}  ${node.current.target}  ${formatLiveDuration(elapsedSeconds)} / ${formatLiveDuration(planned)} planned${describeOverrun(elapsedSeconds, planned)}  queue ${node.left.length - 1} left${etaOf(node)}${failed}`;
  });
  const header = state.interrupted
    ? `${state.phase}  interrupted: no ETA`
    : estimate
      ? `${state.phase}  ETA ${formatRunEta(state, estimate, nowMs, overdue)} (the plan replayed from the run so far)`
      : `${state.phase}  ETA —`;
  return [header, ...(forecastLine && !state.interrupted ? [forecastLine] : []), ...lines];
}

/** Pure: one plain line for a queue event. @internal */
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
    return `${where}: started ${event.target} (planned ${formatLiveDuration(plannedSeconds(plan, event.target))}, ${Math.max(0, (node?.left.length ?? 1) - 1)} queued after it${moved})`;
  }
  return `${where}: ${describeOutcome(event.target, event.outcome)}`;
}

function describeOutcome(target: string, outcome: SettledOutcome): string {
  switch (outcome.status) {
    case 'ok':
      return `finished ${target} in ${formatLiveDuration((outcome.finishedAtMs - outcome.startedAtMs) / 1000)}`;
    case 'failed':
      return `FAILED ${target} after ${formatLiveDuration((outcome.finishedAtMs - outcome.startedAtMs) / 1000)}: ${outcome.error.split('\n').at(-1) ?? ''}`;
    case 'interrupted':
      return `interrupted ${target} after ${formatLiveDuration((outcome.finishedAtMs - outcome.startedAtMs) / 1000)}`;
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
  /** Ctrl-C: once aborted, the view drops every ETA and says the run is interrupted. */
  signal?: AbortSignal;
}

export interface Progress {
  phase(name: string): void;
  note(message: string): void;
  onQueueEvent(event: QueueEvent): void;
  stop(): void;
}

/** The replay is redrawn at least this often, so ETAs follow a target that runs long. */
const LIVE_REPLAY_EVERY_MS = 5_000;

export function createProgress({
  plan,
  clock,
  stream,
  live = Boolean(stream.isTTY),
  signal,
}: ProgressOptions): Progress {
  const state = createProgressState(plan);
  let drawn = 0;
  let timer: NodeJS.Timeout | undefined;
  let forecastLine: string | undefined;
  let estimate: LiveEstimate | undefined;
  // The replay is Monte Carlo (0.06 s for 100 targets on 24 nodes under fixed queues, 0.4 s under guided dispatch):
  // drawn again after a start or finish or every LIVE_REPLAY_EVERY_MS, at most every LIVE_FORECAST_EVERY_MS for
  // events, and on the next redraw (each second) once the last one ran out; between draws the ETAs count down.
  let eventSince = false;
  let replayAtMs = Number.NEGATIVE_INFINITY;
  let replayOriginMs: number | undefined;
  const refreshReplay = () => {
    const nowMs = clock.nowMs();
    const since = nowMs - replayAtMs;
    const due =
      estimate === undefined ||
      replayOriginMs !== state.originMs ||
      since >= LIVE_REPLAY_EVERY_MS ||
      (eventSince && since >= LIVE_FORECAST_EVERY_MS) ||
      isEstimateStale(state, estimate, nowMs);
    if (!due || state.interrupted) return;
    [eventSince, replayAtMs, replayOriginMs] = [false, nowMs, state.originMs];
    ({ forecastLine, estimate } = tryReplay(plan, state, nowMs));
  };
  const redraw = () => {
    refreshReplay();
    const lines = renderProgressView({ plan, state, nowMs: clock.nowMs(), forecastLine, estimate });
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
  const onInterrupt = () => {
    state.interrupted = true;
    if (live && timer) redraw();
  };
  if (signal?.aborted) state.interrupted = true;
  else signal?.addEventListener('abort', onInterrupt, { once: true });
  return {
    phase(name) {
      state.phase = name;
      print(`== ${name}`);
      // The plan's band, once, as the measured run starts: the live view then moves it as targets finish.
      if (name.startsWith('measured') && plan.forecast)
        for (const line of renderForecast(plan.forecast)) print(line.trim());
      if (live && name.startsWith('measured') && !timer) {
        timer = setInterval(redraw, 1000);
        timer.unref();
        redraw();
      }
    },
    note: print,
    onQueueEvent(event) {
      const node = applyQueueEvent(state, event);
      eventSince = live;
      if (!live) print(renderQueueEventLine({ plan, event, node }));
      else if (event.type === 'settled' && event.outcome.status !== 'ok')
        print(renderQueueEventLine({ plan, event, node }));
      else if (timer) redraw();
    },
    stop() {
      signal?.removeEventListener('abort', onInterrupt);
      if (timer) clearInterval(timer);
      timer = undefined;
      if (live) redraw();
    },
  };
}
