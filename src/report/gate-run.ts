import { type RunDir } from '../run-dir/index.js';
import path from 'node:path';
import type { DataFile } from '../artifacts/index.js';
import { ExitCode, RocmPerfError } from '../shared/errors.js';
import { loadRunModel } from './load-run-model.js';
import { listPartialFiles } from './mark-partial-figures.js';

// The one gate every reader of a run passes (report builds the same model; costs --from, plan --from-run, diff,
// export, publish, import and trends read runs through it or through readRunInputs under it): the run's files
// checked against run.json (sizes and digests), traces held to this run, samples to physical ranges, plan.json to
// the plan the run used. What it flags is what the report marks partial.

export interface RunGate {
  dir: string;
  model: DataFile;
  /** The files whose damage leaves some figure partial (the report's `⚠ partial` names), sorted. */
  flaggedFiles: string[];
  /** Each loud warning as the report prints it (`WARNING: …` without the prefix). */
  loudWarnings: string[];
  /** Why plan.json is not this run's plan, when it is not. */
  planProblem: string | undefined;
}

export async function gateRun({ runDir, nowMs }: { runDir: RunDir; nowMs: number }): Promise<RunGate> {
  const { dir } = runDir;
  const { model } = await loadRunModel({ runDir, nowMs });
  const loud = model.summary.warnings.filter((warning) => warning.level === 'loud');
  return {
    dir,
    model,
    flaggedFiles: listPartialFiles(model.summary),
    loudWarnings: loud.map((warning) => warning.message),
    planProblem: loud.find((warning) => warning.stream === 'plan.json')?.message,
  };
}

/** The refusal of a command that writes figures (costs) from a flagged run without `--allow-partial`. Pure. */
export function buildFlaggedRunError({
  gate,
  command,
  flag,
}: {
  gate: RunGate;
  command: string;
  flag: string;
}): RocmPerfError {
  const first = gate.loudWarnings.find((line) =>
    gate.flaggedFiles.some((file) => line.startsWith(`${file}:`)),
  );
  return new RocmPerfError(
    'ROCMPERF_RUN_FLAGGED',
    `${flag} ${gate.dir}: ${gate.flaggedFiles.join(', ')} failed the run's checks (${first ?? gate.loudWarnings[0] ?? 'see `rocm-perf report`'}); ${command} writes no figure from a flagged file`,
    {
      exitCode: ExitCode.fatal,
      hint: `run \`rocm-perf report ${path.basename(gate.dir)}\` to see every warning; restore the files from the run host or a copy, or pass --allow-partial to take figures from the rest of the run (the flagged files' figures are left out)`,
    },
  );
}
