import type {
  CompleteEvent,
  FlowEndEvent,
  FlowStartEvent,
  PerfettoTrace,
  TraceEvent,
} from './trace-event-schema.js';

// The structural rules of a trace that the per-event schema cannot see, as Perfetto's importer applies them:
// X slices on one thread nest (no partial overlap, parents first), each flow has one start and one end, in time
// order, each bound to a slice that encloses it on its own thread; a tid belongs to one pid; every process and
// thread that shows data is named; a counter keeps one series name. Pure; returns one line per problem.

type Track = string;
const trackOf = (e: { pid: number; tid: number }): Track => `${e.pid}/${e.tid}`;

/** X slices in importer order: by start, then the longer (the parent) first. */
function sortSlices(slices: readonly CompleteEvent[]): CompleteEvent[] {
  return [...slices].sort((x, y) => x.ts - y.ts || y.dur - x.dur);
}

function findNestingProblems(slices: readonly CompleteEvent[]): string[] {
  const byTrack = new Map<Track, CompleteEvent[]>();
  for (const s of slices) byTrack.set(trackOf(s), [...(byTrack.get(trackOf(s)) ?? []), s]);
  const problems: string[] = [];
  for (const [track, list] of byTrack) {
    const open: CompleteEvent[] = [];
    for (const slice of sortSlices(list)) {
      while (open.length > 0 && open[open.length - 1]!.ts + open[open.length - 1]!.dur <= slice.ts)
        open.pop();
      const parent = open[open.length - 1];
      if (parent && slice.ts + slice.dur > parent.ts + parent.dur) {
        problems.push(
          `track ${track}: \`${slice.name}\` [${slice.ts}, ${slice.ts + slice.dur}] overlaps \`${parent.name}\` [${parent.ts}, ${parent.ts + parent.dur}] without nesting`,
        );
      }
      open.push(slice);
    }
  }
  return problems;
}

function hasEnclosingSlice(slices: readonly CompleteEvent[], flow: FlowStartEvent | FlowEndEvent): boolean {
  return slices.some(
    (s) => s.pid === flow.pid && s.tid === flow.tid && s.ts <= flow.ts && flow.ts < s.ts + s.dur,
  );
}

function findFlowProblems(events: readonly TraceEvent[], slices: readonly CompleteEvent[]): string[] {
  const flows = new Map<number, { s: FlowStartEvent[]; f: FlowEndEvent[] }>();
  for (const e of events) {
    if (e.ph !== 's' && e.ph !== 'f') continue;
    const entry = flows.get(e.id) ?? { s: [], f: [] };
    if (e.ph === 's') entry.s.push(e);
    else entry.f.push(e);
    flows.set(e.id, entry);
  }
  const problems: string[] = [];
  for (const [id, { s, f }] of flows) {
    if (s.length !== 1 || f.length !== 1) {
      problems.push(`flow ${id}: ${s.length} start(s) and ${f.length} end(s), expected one of each`);
      continue;
    }
    const [start, end] = [s[0]!, f[0]!];
    if (start.name !== end.name || start.cat !== end.cat)
      problems.push(
        `flow ${id}: start and end differ in name or cat (the importer matches on id, cat and name)`,
      );
    if (start.ts > end.ts) problems.push(`flow ${id}: ends (${end.ts}) before it starts (${start.ts})`);
    if (!hasEnclosingSlice(slices, start))
      problems.push(`flow ${id}: no slice on ${trackOf(start)} encloses its start at ${start.ts}`);
    if (!hasEnclosingSlice(slices, end))
      problems.push(`flow ${id}: no slice on ${trackOf(end)} encloses its end at ${end.ts}`);
  }
  return problems;
}

function findNamingProblems(events: readonly TraceEvent[]): string[] {
  const problems: string[] = [];
  const pidOfTid = new Map<number, number>();
  const named = new Set(
    events.flatMap((e) =>
      e.ph === 'M' && e.name === 'process_name'
        ? [`p${e.pid}`]
        : e.ph === 'M' && e.name === 'thread_name'
          ? [`t${e.tid}`]
          : [],
    ),
  );
  const seriesOf = new Map<string, string>();
  for (const e of events) {
    const owner = pidOfTid.get(e.tid);
    if (owner !== undefined && owner !== e.pid)
      problems.push(
        `tid ${e.tid} is used under pid ${owner} and pid ${e.pid}; the importer keys threads by tid`,
      );
    pidOfTid.set(e.tid, e.pid);
    if (e.ph === 'M') continue;
    if (!named.has(`p${e.pid}`)) problems.push(`pid ${e.pid} has events but no process_name`);
    if (e.ph === 'X' && !named.has(`t${e.tid}`)) problems.push(`tid ${e.tid} has slices but no thread_name`);
    if (e.ph === 'C') {
      const key = `${e.pid}/${e.name}`;
      const series = Object.keys(e.args).join(',');
      if (seriesOf.has(key) && seriesOf.get(key) !== series)
        problems.push(`counter ${key}: series changes from ${seriesOf.get(key)} to ${series}`);
      seriesOf.set(key, series);
    }
  }
  return [...new Set(problems)];
}

export function findTraceProblems(trace: PerfettoTrace): string[] {
  const slices = trace.traceEvents.filter((e): e is CompleteEvent => e.ph === 'X');
  return [
    ...findNestingProblems(slices),
    ...findFlowProblems(trace.traceEvents, slices),
    ...findNamingProblems(trace.traceEvents),
  ];
}
