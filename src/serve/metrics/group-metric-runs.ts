import { PREVIOUS_RUNS } from './metric-catalog.js';

// Which runs /metrics reads: per lane, harness and arch, the newest completed run and up to PREVIOUS_RUNS before it.
// A run still running, failed or interrupted is not a finished measurement of the fleet, so it is never the latest
// (a lane whose runs keep failing ages, and its no-run alert fires: docs/metrics.md). Pure.

export interface MetricRunEntry {
  stamp: string;
  dir: string;
  lane: string;
  harness: string;
  arch: string;
  status: string;
}

export interface MetricRunDirs {
  lane: string;
  harness: string;
  arch: string;
  /** Newest first: the latest completed run, then the ones before it. */
  dirs: string[];
}

/** `entries` newest first (listRuns' order). */
export function groupMetricRuns(entries: readonly MetricRunEntry[]): MetricRunDirs[] {
  const groups = new Map<string, MetricRunDirs>();
  for (const entry of entries) {
    if (entry.status !== 'completed') continue;
    const key = JSON.stringify([entry.lane, entry.harness, entry.arch]);
    const group = groups.get(key) ?? { lane: entry.lane, harness: entry.harness, arch: entry.arch, dirs: [] };
    if (group.dirs.length <= PREVIOUS_RUNS) group.dirs.push(entry.dir);
    groups.set(key, group);
  }
  return [...groups.values()];
}
