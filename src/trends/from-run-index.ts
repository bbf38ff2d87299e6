import type { RunIndexEntry } from '../artifacts/index.js';
import type { TrendRun } from './build-trends.js';

// A run index entry (docs/history.md) → the part of a run trends read, so serve's trends page is built from the
// index without opening a run dir. The entry already left out what the run's checks marked partial (as toTrendRun
// does); a target's start and end are kept only as whether both were seen (`measured`), which is all trends ask.
// Pure.

export function toTrendRunFromEntry(entry: RunIndexEntry): TrendRun {
  return {
    stamp: entry.stamp,
    harness: entry.harness,
    lane: entry.lane,
    status: entry.status,
    makespanSeconds: entry.makespanSeconds,
    targets: entry.targets.map(([target, status, buildSeconds, , uploadBytes, measured]) => ({
      target,
      status,
      startMs: measured ? entry.startedAtMs : null,
      endMs: measured ? (entry.finishedAtMs ?? entry.startedAtMs) : null,
      buildSeconds,
      uploadBytes,
    })),
    forecast: entry.forecast && {
      ...entry.forecast,
      culprits: entry.forecast.culprits.map((target) => ({ target })),
    },
  };
}
