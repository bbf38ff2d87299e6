import type { BuilderClock, ReportWarning, RunFile } from '../artifacts/index.js';
import {
  averageReadings,
  CLOCK_WARNING_MS,
  describeClockProblems,
  describeOffset,
  estimateBuilderClocks,
  shiftTrace,
  toBuildWindows,
  type TargetTrace,
} from '../collect/index.js';

// Traces carry their builder's clock; run.json, the samples and the page the workstation's. Each builder's offset is
// estimated from its records (estimateBuilderClocks) and its traces are moved onto the workstation's clock, so a
// skewed builder neither misplaces its targets on the timeline nor stretches the makespan.

export interface AlignedTraces {
  traces: TargetTrace[];
  builderClocks: BuilderClock[];
}

/** The builders' clocks a run's records and readings give (also what finalize records in run.json). */
export function estimateRunBuilderClocks(
  run: RunFile | undefined,
  traces: readonly TargetTrace[],
): BuilderClock[] {
  if (!run) return [];
  const nodeReadings = (run.clocks ?? []).filter((reading) => reading.role === 'node');
  const timed = Object.fromEntries(
    Object.entries(run.targets).map(([target, outcome]) => [
      target,
      {
        node: outcome.node,
        startedAtMs: 'startedAtMs' in outcome ? outcome.startedAtMs : undefined,
        finishedAtMs: 'finishedAtMs' in outcome ? outcome.finishedAtMs : undefined,
      },
    ]),
  );
  return estimateBuilderClocks({
    windows: toBuildWindows(timed, traces),
    nodeOffsets: averageReadings(nodeReadings),
  });
}

export function alignTraces(run: RunFile | undefined, traces: readonly TargetTrace[]): AlignedTraces {
  const builderClocks = estimateRunBuilderClocks(run, traces);
  const offsets = new Map(builderClocks.map((clock) => [clock.node, clock.offsetMs]));
  return {
    builderClocks,
    traces: traces.map((trace) => {
      const node = run?.targets[trace.target]?.node;
      return shiftTrace(trace, node === undefined ? 0 : (offsets.get(node) ?? 0));
    }),
  };
}

/** Loud: a clock more than 1 s off, a reading that failed, a clock stepped mid-run. Note: records overruling a node's clock. */
export function buildClockWarnings(
  run: RunFile | undefined,
  builderClocks: readonly BuilderClock[],
): ReportWarning[] {
  const warnings: ReportWarning[] = describeClockProblems(run?.clocks ?? []).map((message) => ({
    level: 'loud',
    stream: 'run.json',
    message,
  }));
  for (const clock of builderClocks) {
    // An imported build record holds one clock only (the builder's): there is no workstation to be ahead of.
    if (clock.source !== 'build records' || run?.imported !== undefined) continue;
    const far = Math.abs(clock.offsetMs) > CLOCK_WARNING_MS;
    warnings.push({
      level: far ? 'loud' : 'note',
      stream: 'run.json',
      message: `builder on ${clock.node}: its build records put its clock ${describeOffset(clock)}, from ${clock.records} records${far ? '; fix its time sync' : ''}. Its traces are shifted onto this workstation's clock`,
    });
  }
  return warnings;
}
