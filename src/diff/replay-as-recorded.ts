import type { DataFile, Plan, RunFile } from '../artifacts/index.js';
import { buildExplainInputs, createCoalitionValue } from './build-explain-inputs.js';
import { buildSideFigures } from './build-side-figures.js';

// One run replayed as `diff` replays it, for `plan --from-run` to print beside its cost-model baseline. Pure. The
// figures are fitted to the run (docs/run-diff.md): each target's wall time less its upload at the node's measured
// rate, plus the node start delays and target start lags the cost model does not explain, so the replay gives back
// the run's own makespan. The same replay with the waits taken out says how much of it they are.

interface RecordedReplay {
  /** The replay with the run's own figures: diff's "model check" of this run. */
  makespanSeconds: number;
  /** The same replay without node start delays and target start lags. */
  withoutWaitsSeconds: number;
}

/** Throws a UsageError when the run's queues and waits cannot be replayed (a cycle). */
export function replayAsRecorded(run: { runFile: RunFile; plan: Plan; model: DataFile }): RecordedReplay {
  const side = buildSideFigures(run);
  const inputs = buildExplainInputs({ a: side, b: side });
  const makespanSeconds = createCoalitionValue(inputs)(new Set());
  const zero = {
    ...inputs,
    a: {
      ...inputs.a,
      startLagSeconds: new Float64Array(inputs.targets.length),
      startDelaySeconds: new Float64Array(inputs.nodes.length),
    },
  };
  return { makespanSeconds, withoutWaitsSeconds: createCoalitionValue(zero)(new Set()) };
}
