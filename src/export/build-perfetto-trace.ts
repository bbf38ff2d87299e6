import type { Band, DataFile, TargetSummary } from '../artifacts/index.js';
import type {
  CompleteEvent,
  CounterEvent,
  FlowEndEvent,
  FlowStartEvent,
  MetadataEvent,
  PerfettoTrace,
  TraceEvent,
} from './trace-event-schema.js';
import { buildPlanLanes } from './build-plan-lanes.js';

// data.json model → a Chrome JSON trace for ui.perfetto.dev. A process per node; a thread per target holding
// the target's whole build record as one slice with its phase bands (setup, steps, upload, export) nested
// inside; per node, single-series counters `cpu` and `mem` (Perfetto names them `cpu %` and `mem %`); a flow
// arrow from each dependency's record to its dependent's; and a `plan` process with the planned slices. Times
// are integer µs from the earliest instant in the model (otherData.originMs says which). Pure.

export interface BuildPerfettoTraceOptions {
  model: DataFile;
  /** target → the in-run targets it depends on (plan.json `deps`); each pair becomes a flow arrow. */
  deps?: Readonly<Record<string, readonly string[]>>;
}

export interface PerfettoExport {
  trace: PerfettoTrace;
  notes: string[];
}

const FIRST_TID = 1000;
const COUNTER_SERIES = '%';

interface TimedTarget {
  summary: TargetSummary;
  pid: number;
  tid: number;
  ts: number;
  end: number;
}

interface Context {
  toMicros: (ms: number) => number;
  events: TraceEvent[];
  notes: string[];
}

function findOriginMs(model: DataFile): number {
  const starts = [
    model.timeline.originMs,
    ...model.timeline.bands.map((b) => b.startMs),
    ...model.timeline.planned.map((p) => p.startMs),
  ];
  for (const t of model.summary.targets) if (t.startMs !== null) starts.push(t.startMs);
  for (const s of model.series) for (const [t] of s.points) starts.push(t);
  return Math.min(...starts);
}

function buildPids(model: DataFile): Map<string, { pid: number; label: string }> {
  const pids = new Map<string, { pid: number; label: string }>();
  const add = (node: string, builder: string): void => {
    if (!pids.has(node))
      pids.set(node, {
        pid: pids.size + 1,
        label: builder && builder !== node ? `${node} (${builder})` : node,
      });
  };
  for (const lane of model.timeline.lanes) add(lane.node, lane.builder);
  for (const t of model.summary.targets) add(t.node, t.builder);
  for (const s of model.series) add(s.node, s.builder);
  return pids;
}

function nameEvent(
  name: 'process_name' | 'thread_name',
  { pid, tid }: { pid: number; tid: number },
  label: string,
): MetadataEvent {
  return { ph: 'M', name, pid, tid, args: { name: label } };
}

/** Chrome's trace viewer orders tracks by sort index; Perfetto ignores it. */
function sortEvent(
  name: 'process_sort_index' | 'thread_sort_index',
  { pid, tid }: { pid: number; tid: number },
  index: number,
): MetadataEvent {
  return { ph: 'M', name, pid, tid, args: { sort_index: index } };
}

function toTargetArgs(t: TargetSummary): CompleteEvent['args'] {
  return {
    node: t.node,
    status: t.status,
    buildSeconds: t.buildSeconds,
    totalSeconds: t.totalSeconds,
    exportSeconds: t.exportSeconds,
    uploadSeconds: t.uploadSeconds,
    uploadBytes: t.uploadBytes,
    cachedSteps: t.cachedSteps,
    totalSteps: t.totalSteps,
    onCriticalPath: t.onCriticalPath,
    plannedNode: t.plannedNode,
  };
}

/** Targets with a start, each on its own thread; a running target ends at the timeline's end for now. */
function placeTargets(model: DataFile, ctx: Context, pids: Map<string, { pid: number }>): TimedTarget[] {
  const timed = model.summary.targets
    .filter((t) => t.startMs !== null && (t.endMs !== null || t.status === 'running'))
    .sort((a, b) => a.startMs! - b.startMs! || a.target.localeCompare(b.target));
  const skipped = model.summary.targets.length - timed.length;
  if (skipped > 0)
    ctx.notes.push(
      `${skipped} target(s) without a build record (pending, skipped or no trace) have no track`,
    );
  return timed.map((summary, i) => {
    const ts = ctx.toMicros(summary.startMs!);
    return {
      summary,
      pid: pids.get(summary.node)!.pid,
      tid: FIRST_TID + i,
      ts,
      end: Math.max(ts, ctx.toMicros(summary.endMs ?? model.timeline.endMs)),
    };
  });
}

function emitTarget(target: TimedTarget, bands: readonly Band[], ctx: Context): void {
  const { summary, pid, tid, ts, end } = target;
  ctx.events.push(
    nameEvent('thread_name', { pid, tid }, summary.target),
    sortEvent('thread_sort_index', { pid, tid }, tid),
  );
  ctx.events.push({
    ph: 'X',
    name: summary.target,
    cat: 'target',
    pid,
    tid,
    ts,
    dur: end - ts,
    args: toTargetArgs(summary),
  });
  for (const band of bands) {
    const start = Math.min(Math.max(ctx.toMicros(band.startMs), ts), end);
    const stop = Math.min(Math.max(ctx.toMicros(band.endMs), start), end);
    if (stop > start)
      ctx.events.push({
        ph: 'X',
        name: band.phase,
        cat: 'phase',
        pid,
        tid,
        ts: start,
        dur: stop - start,
        args: { commands: band.commands, bytes: band.bytes },
      });
  }
}

function emitCounters(model: DataFile, ctx: Context, pids: Map<string, { pid: number }>): void {
  for (const series of model.series) {
    const pid = pids.get(series.node)!.pid;
    for (const [tMs, value] of series.points) {
      if (value === null) continue;
      const event: CounterEvent = {
        ph: 'C',
        name: series.metric,
        pid,
        tid: pid,
        ts: ctx.toMicros(tMs),
        args: { [COUNTER_SERIES]: Math.round(value * 10) / 10 },
      };
      ctx.events.push(event);
    }
  }
}

function emitFlows(
  targets: readonly TimedTarget[],
  deps: BuildPerfettoTraceOptions['deps'],
  ctx: Context,
): void {
  const byName = new Map(targets.map((t) => [t.summary.target, t]));
  let id = 1;
  for (const target of targets) {
    for (const depName of [...(deps?.[target.summary.target] ?? [])].sort()) {
      const dep = byName.get(depName);
      if (!dep) continue;
      const startTs = dep.end > dep.ts ? dep.end - 1 : dep.ts;
      if (startTs > target.ts || target.end <= target.ts || dep.end <= dep.ts) {
        ctx.notes.push(
          `no arrow ${depName} → ${target.summary.target}: ${target.summary.target} started before ${depName} finished, or a record has no duration`,
        );
        continue;
      }
      const start: FlowStartEvent = {
        ph: 's',
        name: 'dependency',
        cat: 'dependency',
        id,
        pid: dep.pid,
        tid: dep.tid,
        ts: startTs,
      };
      const end: FlowEndEvent = {
        ph: 'f',
        bp: 'e',
        name: 'dependency',
        cat: 'dependency',
        id,
        pid: target.pid,
        tid: target.tid,
        ts: target.ts,
      };
      ctx.events.push(start, end);
      id += 1;
    }
  }
}

const PHASE_RANK: Record<TraceEvent['ph'], number> = { M: 0, X: 1, s: 2, f: 3, C: 4 };

/** Metadata first, then by time; at one instant parents before children, slices before the flows bound to them. */
function sortTraceEvents(events: readonly TraceEvent[]): TraceEvent[] {
  const tsOf = (e: TraceEvent): number => (e.ph === 'M' ? -1 : e.ts);
  return [...events].sort(
    (x, y) =>
      tsOf(x) - tsOf(y) ||
      PHASE_RANK[x.ph] - PHASE_RANK[y.ph] ||
      (x.ph === 'X' && y.ph === 'X' ? y.dur - x.dur : 0),
  );
}

export function buildPerfettoTrace({ model, deps }: BuildPerfettoTraceOptions): PerfettoExport {
  const originMs = findOriginMs(model);
  const ctx: Context = {
    toMicros: (ms) => Math.max(0, Math.round((ms - originMs) * 1000)),
    events: [],
    notes: [],
  };
  const pids = buildPids(model);
  for (const [, { pid, label }] of pids)
    ctx.events.push(
      nameEvent('process_name', { pid, tid: pid }, label),
      sortEvent('process_sort_index', { pid, tid: pid }, pid),
    );
  const targets = placeTargets(model, ctx, pids);
  const bandsOf = new Map<string, Band[]>();
  for (const band of model.timeline.bands)
    bandsOf.set(band.target, [...(bandsOf.get(band.target) ?? []), band]);
  for (const target of targets) emitTarget(target, bandsOf.get(target.summary.target) ?? [], ctx);
  emitCounters(model, ctx, pids);
  emitFlows(targets, deps, ctx);
  buildPlanLanes({
    planned: model.timeline.planned,
    pid: pids.size + 1,
    firstTid: FIRST_TID + targets.length,
    toMicros: ctx.toMicros,
  }).forEach((e) => ctx.events.push(e));
  const otherData = {
    stamp: model.run.stamp,
    harness: model.run.harness,
    namespace: model.run.namespace,
    status: model.run.status,
    originMs,
    makespanSeconds: model.summary.makespanSeconds,
  };
  return {
    trace: { traceEvents: sortTraceEvents(ctx.events), displayTimeUnit: 'ms', otherData },
    notes: ctx.notes,
  };
}
