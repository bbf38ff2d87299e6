import { openRunDir } from '../run-dir/index.js';
import { gateRun } from '../report/index.js';
import { readTraceFiles } from '../run-dir/index.js';
import type { OtlpTargetTrace } from './build-otlp-target-spans.js';

// What `export --otlp` reads from a run dir: the run through the one gate every reader passes (its model and loud
// warnings), and each target's trace-<target>.json through the report's trace reader, held to the run the same
// way, for its steps and the BuildKit spans its record starts at.

export type OtlpRunGate = Awaited<ReturnType<typeof gateRun>>;

export async function readOtlpInputs({
  dir,
  nowMs,
}: {
  dir: string;
  nowMs: number;
}): Promise<{ gate: OtlpRunGate; traces: Map<string, OtlpTargetTrace> }> {
  const runDir = openRunDir(dir);
  const gate = await gateRun({ runDir, nowMs });
  const { traces, extents } = await readTraceFiles(runDir, { nowMs });
  const byTarget = new Map<string, OtlpTargetTrace>();
  for (const trace of traces)
    byTarget.set(trace.target, { trace, buildkitSpans: extents.get(trace.target)?.roots ?? [] });
  return { gate, traces: byTarget };
}
