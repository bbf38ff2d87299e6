import type { Timeline } from '../artifacts/index.js';
import type { CompleteEvent, MetadataEvent } from './trace-event-schema.js';

// The plan as a `plan` process: per node, its planned slices on a thread `plan: <node>`; planned slices that
// would overlap on a node (a node running two targets at once) go to a second lane, so slices on one thread
// never partially overlap. Pure.

export interface BuildPlanLanesOptions {
  planned: Timeline['planned'];
  pid: number;
  firstTid: number;
  toMicros: (ms: number) => number;
}

export function buildPlanLanes({
  planned,
  pid,
  firstTid,
  toMicros,
}: BuildPlanLanesOptions): (MetadataEvent | CompleteEvent)[] {
  if (planned.length === 0) return [];
  const events: (MetadataEvent | CompleteEvent)[] = [
    { ph: 'M', name: 'process_name', pid, tid: pid, args: { name: 'plan' } },
    { ph: 'M', name: 'process_sort_index', pid, tid: pid, args: { sort_index: pid } },
  ];
  const lanes: { node: string; tid: number; freeAt: number }[] = [];
  const sorted = [...planned].sort(
    (a, b) => a.node.localeCompare(b.node) || a.startMs - b.startMs || a.target.localeCompare(b.target),
  );
  for (const slice of sorted) {
    const [ts, end] = [toMicros(slice.startMs), toMicros(slice.endMs)];
    let lane = lanes.find((l) => l.node === slice.node && l.freeAt <= ts);
    if (!lane) {
      const count = lanes.filter((l) => l.node === slice.node).length;
      lane = { node: slice.node, tid: firstTid + lanes.length, freeAt: 0 };
      lanes.push(lane);
      events.push({
        ph: 'M',
        name: 'thread_name',
        pid,
        tid: lane.tid,
        args: { name: `plan: ${slice.node}${count > 0 ? ` #${count + 1}` : ''}` },
      });
      events.push({ ph: 'M', name: 'thread_sort_index', pid, tid: lane.tid, args: { sort_index: lane.tid } });
    }
    lane.freeAt = Math.max(end, ts);
    events.push({
      ph: 'X',
      name: slice.target,
      cat: 'plan',
      pid,
      tid: lane.tid,
      ts,
      dur: Math.max(0, end - ts),
      args: { node: slice.node },
    });
  }
  return events;
}
