import { readRunFile, listRuns, readLane, type RunDir } from '../run-dir/index.js';
import path from 'node:path';
import type { DataFile, Plan, RunFile, TargetWhy } from '../artifacts/index.js';

import { findRunDir, loadRunModel } from '../report/index.js';

import { isRocmPerfError } from '../shared/errors.js';

import { buildRunWhy } from './build-run-why.js';
import { priceMisses } from './price-misses.js';
import { readRunEvidence } from './read-run-evidence.js';

// `why` for one run dir (docs/explain.md): find the run to compare with (`--against RUN`, else the newest earlier
// run of the same lane, harness and arch under the same runs root), read both runs' evidence, explain each miss,
// price it with diff's replay, and put it into data.json's model (targets[].why, summary.why). Only warm and bench
// runs are explained: a cold run misses every step by design.

export interface ExplainRunDirOptions {
  runDir: RunDir;
  model: DataFile;
  runFile: RunFile | undefined;
  plan: Plan | undefined;
  /** `--against RUN`: a run dir or a stamp under `root`. */
  against?: string | undefined;
  root?: string | undefined;
  /** Where the previous run is looked for: default the run dir's parent (import stages a run outside its root). */
  runsRoot?: string | undefined;
  nowMs: number;
}

const EXPLAINED_HARNESSES: ReadonlySet<string> = new Set(['warm', 'bench']);

/** The newest run under the same root that started before this one, of the same lane, harness and arch. */
async function findComparedRun(
  runDir: RunDir,
  runFile: RunFile,
  runsRoot: string | undefined,
): Promise<RunDir | undefined> {
  const here = path.resolve(runDir.dir);
  const lane = await readLane(runDir);
  for (const entry of await listRuns(runsRoot ?? path.dirname(here), runDir.open)) {
    if (path.resolve(entry.dir) === here) continue;
    const sibling = runDir.open(entry.dir);
    const other = await readRunFile(sibling).catch(() => undefined);
    if (!other || other.startedAtMs >= runFile.startedAtMs) continue;
    if (other.harness !== runFile.harness || other.arch !== runFile.arch) continue;
    if ((await readLane(sibling).catch(() => undefined)) !== lane) continue;
    return sibling;
  }
  return undefined;
}

export async function explainRunDir(options: ExplainRunDirOptions): Promise<DataFile> {
  const { runDir, model, runFile, plan } = options;
  if (!runFile || !EXPLAINED_HARNESSES.has(runFile.harness)) return model;
  const againstDir =
    options.against !== undefined
      ? runDir.open(
          await findRunDir({
            run: options.against,
            root: options.root ?? path.dirname(path.resolve(runDir.dir)),
          }),
        )
      : await findComparedRun(runDir, runFile, options.runsRoot);
  const current = await readRunEvidence({ runDir, stamp: model.run.stamp, runFile, plan });
  // A compared run that cannot be read (a damaged run.json, plan.json of another version) leaves this run's report
  // whole: its misses are explained as with no run to compare with, and a note says which run and why.
  const loadNotes: string[] = [];
  const compared =
    againstDir === undefined
      ? undefined
      : await loadRunModel({ runDir: againstDir, nowMs: options.nowMs, keepFiles: true }).catch(
          (error: unknown) => {
            if (!isRocmPerfError(error)) throw error;
            loadNotes.push(`${path.basename(againstDir.dir)}: not compared with (${error.message})`);
            return undefined;
          },
        );
  const previous =
    compared?.runFile === undefined
      ? undefined
      : await readRunEvidence({
          runDir: compared.runDir,
          stamp: compared.stamp,
          runFile: compared.runFile,
          plan: compared.plan,
        });
  const result = buildRunWhy({ current: current.evidence, previous: previous?.evidence });
  const notes = [
    ...loadNotes,
    ...result.run.notes,
    ...(runFile.evidence?.notes ?? []),
    ...current.problems.map((p) => p.message),
    ...(previous?.problems.map((p) => `${compared!.stamp}/${p.message}`) ?? []),
  ];
  if (compared && !compared.runFile) notes.push(`${compared.stamp}: no run.json, so nothing to compare with`);
  if (compared?.runFile && compared.plan && plan) {
    const prices = priceMisses({
      why: result.targets,
      compared: { runFile: compared.runFile, plan: compared.plan, model: compared.model },
      current: { runFile, plan, model },
    });
    for (const [target, cost] of prices.costs) result.targets.get(target)!.costSeconds = cost;
    notes.push(...prices.notes);
  } else if (compared) notes.push('misses not priced: the replay needs run.json and plan.json of both runs');
  const explained = attachWhy(model, result.targets, {
    against: result.run.against,
    notes: [...new Set(notes)],
  });
  // A damaged evidence file of this run leaves its why partial: loud, like any damaged input (docs/trust.md).
  explained.summary.warnings = [
    ...explained.summary.warnings,
    ...current.problems.map((p) => ({ level: 'loud' as const, stream: p.file, message: p.message })),
  ];
  return explained;
}

/** The model with each explained target's why and the run's. Pure. */
function attachWhy(
  model: DataFile,
  why: ReadonlyMap<string, TargetWhy>,
  run: NonNullable<DataFile['summary']['why']>,
): DataFile {
  return {
    ...model,
    summary: {
      ...model.summary,
      why: run,
      targets: model.summary.targets.map((t) => ({ ...t, why: why.get(t.target) ?? null })),
    },
  };
}
