// Figures measured beside the product, for tests and scripts that check it against what happened outside its
// measured path: a union of intervals computed apart from the product's, and each node's cgroup CPU over time.
import { readFileSync } from 'node:fs';
import { readCpuUsageNs } from './node-cgroups.js';
import type { RunningFleet } from './start-fleet.js';

/** Length of the union of [startMs, endMs] intervals, in ms: written here, apart from the product's own. */
export function unionMs(intervals: readonly (readonly [number, number])[]): number {
  let total = 0;
  let open: [number, number] | undefined;
  for (const [start, end] of [...intervals].sort((x, y) => x[0] - y[0])) {
    if (open && start <= open[1]) open[1] = Math.max(open[1], end);
    else {
      if (open) total += open[1] - open[0];
      open = [start, end];
    }
  }
  return open ? total + open[1] - open[0] : total;
}

/** CPU time (s) the node's cgroup spent while the target ran (the target's bake is the only work in it then). */
export function readCgroupCpuSeconds(
  samples: readonly CgroupSample[],
  startMs: number,
  endMs: number,
): number {
  const at = (ms: number) => {
    const after = samples.findIndex((sample) => sample.atMs >= ms);
    if (after <= 0) return samples[Math.max(0, after)]?.usageNs ?? 0;
    const [a, b] = [samples[after - 1]!, samples[after]!];
    return a.usageNs + ((b.usageNs - a.usageNs) * (ms - a.atMs)) / (b.atMs - a.atMs);
  };
  return samples.length === 0 ? 0 : (at(endMs) - at(startMs)) / 1e9;
}

export interface CgroupSample {
  atMs: number;
  usageNs: number;
}

/** Samples each node's compile cgroup cpuacct.usage every `intervalMs` until stopped (test code, beside the product). */
export function sampleCgroupCpu(fleet: RunningFleet, intervalMs = 20): () => Map<string, CgroupSample[]> {
  const samples = new Map<string, CgroupSample[]>(fleet.nodes.map((node) => [node.name, []]));
  const take = () => {
    const atMs = Date.now();
    for (const node of fleet.nodes)
      samples.get(node.name)!.push({ atMs, usageNs: readCpuUsageNs(node.cgroup.workDirs.compileCpuacct) });
  };
  take();
  const timer = setInterval(take, intervalMs);
  return () => {
    clearInterval(timer);
    take();
    return samples;
  };
}

/**
 * Seconds nginx itself spent serving the node's sccache requests in [startMs, endMs]: the union of
 * [msec − request_time, msec] over its access-log lines from the node's address (nginx's clock, not the double's).
 */
export function readSccacheServerSeconds(
  fleet: RunningFleet,
  address: string,
  startMs: number,
  endMs: number,
): number {
  const intervals: [number, number][] = [];
  for (const text of readFileSync(fleet.services.nginxLogPath, 'utf8').split('\n')) {
    if (!text) continue;
    const line = JSON.parse(text) as { msec: number; request_time: number; remote_addr: string };
    const end = line.msec * 1000;
    const start = end - line.request_time * 1000;
    if (line.remote_addr === address && start >= startMs && end <= endMs) intervals.push([start, end]);
  }
  return unionMs(intervals) / 1000;
}
