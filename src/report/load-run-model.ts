import {
  readRunDirNames,
  type RunDir,
  readPlanFileIfPresent,
  readDataFile,
  readRunFile,
  readLane,
  readRunInputs,
  readRunFileChecks,
} from '../run-dir/index.js';
import { stat } from 'node:fs/promises';
import { statRunFile } from '../shared/open-run-file.js';
import path from 'node:path';
import {
  type DataFile,
  RUN_DIR_FILES,
  type Plan,
  RUN_CHECKS_VERSION,
  type RunFile,
  STREAM_FILES,
  TRACE_FILE,
} from '../artifacts/index.js';
import { UsageError } from '../shared/errors.js';

import { buildReportModel } from './build-model.js';

// One run dir → its data.json model (plus run.json and plan.json when present), for diff, export and trends.
// data.json is used when it passes DataFileSchema and agrees with run.json's status; otherwise (absent, another
// version, or written while the run was still live) the model is rebuilt from the run files the way `report`
// builds it, and a note says why.

export interface LoadedRun {
  dir: string;
  /** The run dir's handle: what loading read is not read again through it. */
  runDir: RunDir;
  stamp: string;
  model: DataFile;
  runFile: RunFile | undefined;
  plan: Plan | undefined;
  /** Where the model came from. */
  source: 'data.json' | 'run files';
  notes: string[];
}

/** RUN as a path, else as a stamp under the runs root; refused when it is not a run dir. */
export async function findRunDir({ run, root }: { run: string; root: string }): Promise<string> {
  for (const candidate of [path.resolve(run), path.resolve(root, run)]) {
    if ((await stat(candidate).catch(() => undefined))?.isDirectory()) {
      await readRunDirNames(candidate);
      return candidate;
    }
  }
  throw new UsageError(`${run}: no such run dir (looked in the current directory and under ${root})`, {
    hint: 'pass a run dir, or a stamp under --root/PERF_ROOT (`ls` the runs root to see them)',
  });
}

/** The stored data.json when it can be trusted, else a note saying why not. */
async function readStoredModel(
  runDir: RunDir,
  runFile: RunFile | undefined,
  keepFiles: boolean,
): Promise<{ model?: DataFile; note?: string }> {
  const read = await readDataFile(runDir);
  if (read.state === 'absent') return {};
  if (read.state === 'bad') return { note: `${read.file} ${read.why}; rebuilt from the run files` };
  const file = runDir.file(RUN_DIR_FILES.data);
  const parsed = { data: read.model };
  if (parsed.data.run.runChecks !== RUN_CHECKS_VERSION)
    return {
      note: `${file} was made before this rocm-perf's run checks (digests, traces held to the run, samples to physical ranges); rebuilt from the run files`,
    };
  if (runFile && parsed.data.run.status !== runFile.status) {
    return {
      note: `${file} says the run is ${parsed.data.run.status} but run.json says ${runFile.status}; rebuilt from the run files`,
    };
  }
  const changed = findChangedStream(parsed.data, await readStreamSizes(runDir));
  if (changed) return { note: `${file} ${changed}; rebuilt from the run files` };
  // A same-size edit, or plan.json swapped: data.json cannot say, run.json's digests can.
  // A stored model that passes is used as it is, so unless the caller reads the files next, nothing is kept.
  const checks = await readRunFileChecks({
    runDir,
    run: runFile,
    plan: await readPlanFileIfPresent(runDir),
    keep: keepFiles,
  });
  const failed = [...checks.mismatches.keys(), ...(checks.planProblem ? ['plan.json'] : [])];
  if (failed.length > 0)
    return {
      note: `${file} may hide a change to ${failed.join(', ')} since it was made (run.json's checks fail); rebuilt from the run files`,
    };
  const lane = await readLane(runDir);
  if (parsed.data.run.lane !== lane) {
    return {
      note: `${file} was made in lane ${parsed.data.run.lane}, but the run is lane ${lane} (${RUN_DIR_FILES.lane}); rebuilt from the run files`,
    };
  }
  return { model: parsed.data };
}

/** The size of each input file of the run dir now (undefined: absent), traces included. */
async function readStreamSizes(runDir: RunDir): Promise<Map<string, number | undefined>> {
  const names = [...STREAM_FILES, ...(await runDir.listNames()).filter((name) => TRACE_FILE.test(name))];
  const sizes = new Map<string, number | undefined>();
  for (const name of names) {
    sizes.set(name, (await statRunFile(runDir.file(name)))?.size);
  }
  return sizes;
}

/**
 * How the run's files differ from those the stored data.json was made from (sizes and which traces exist), said
 * for a note; undefined when they agree. A file damaged or replaced after `report` must not hide behind its model.
 */
function findChangedStream(
  model: DataFile,
  sizes: ReadonlyMap<string, number | undefined>,
): string | undefined {
  const names = new Set([...Object.keys(model.summary.streams), ...sizes.keys()]);
  for (const name of [...names].sort()) {
    const stored = model.summary.streams[name];
    const was = stored?.present ? stored.bytes : undefined;
    const now = sizes.get(name);
    if (was === now) continue;
    const say = (bytes: number | undefined) => (bytes === undefined ? 'absent' : `${bytes} bytes`);
    return `was made when ${name} was ${say(was)}; it is ${say(now)} now`;
  }
  return undefined;
}

export async function loadRunModel({
  runDir,
  nowMs,
  keepFiles = false,
}: {
  runDir: RunDir;
  nowMs: number;
  /** The command reads the run's files after loading it (why reads the compared run's evidence): keep them. */
  keepFiles?: boolean;
}): Promise<LoadedRun> {
  const { dir } = runDir;
  const runFile = await readRunFile(runDir);
  const plan = await readPlanFileIfPresent(runDir);
  const stored = await readStoredModel(runDir, runFile, keepFiles);
  const notes = stored.note ? [stored.note] : [];
  const stamp = path.basename(path.resolve(dir));
  if (stored.model)
    return { dir, runDir, stamp, model: stored.model, runFile, plan, source: 'data.json', notes };
  const model = buildReportModel(await readRunInputs({ runDir, generatedAtMs: nowMs }));
  return { dir, runDir, stamp, model, runFile, plan, source: 'run files', notes };
}
