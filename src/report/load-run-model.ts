import { readdir, stat } from 'node:fs/promises';
import { statRunFile } from '../artifacts/open-run-file.js';
import path from 'node:path';
import {
  type DataFile,
  DataFileSchema,
  LANE_FILE,
  type Plan,
  RUN_CHECKS_VERSION,
  type RunFile,
  STEP_USAGE_FILE,
} from '../artifacts/index.js';
import { UsageError } from '../shared/errors.js';
import { readRunDirNames } from '../run-dir/read-run-dir-names.js';
import { RUN_FILES, TRACE_FILE } from '../run-dir/run-files.js';
import { buildReportModel } from './build-model.js';
import { readPlanFileIfPresent } from '../run-dir/plan-file-io.js';
import { readTextIfPresent } from '../run-dir/read-json-file.js';
import { readRunFile } from '../run-dir/read-run-file.js';
import { readLane, readRunInputs } from '../run-dir/read-run-dir.js';
import { readRunFileChecks } from '../run-dir/read-run-checks.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';
import { errorMessage } from '../shared/error-message.js';

// One run dir → its data.json model (plus run.json and plan.json when present), for diff, export and trends.
// data.json is used when it passes DataFileSchema and agrees with run.json's status; otherwise (absent, another
// version, or written while the run was still live) the model is rebuilt from the run files the way `report`
// builds it, and a note says why.

export interface LoadedRun {
  dir: string;
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
  dir: string,
  runFile: RunFile | undefined,
): Promise<{ model?: DataFile; note?: string }> {
  const file = path.join(dir, 'data.json');
  const text = await readTextIfPresent(file);
  if (text === undefined) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { note: `${file} is not JSON (${errorMessage(error)}); rebuilt from the run files` };
  }
  const parsed = DataFileSchema.safeParse(raw);
  if (!parsed.success) {
    const first = formatZodIssues(parsed.error.issues, { limit: 1 }) || 'invalid';
    return {
      note: `${file} does not match this rocm-perf's data.json schema (${first}); rebuilt from the run files`,
    };
  }
  if (parsed.data.run.runChecks !== RUN_CHECKS_VERSION)
    return {
      note: `${file} was made before this rocm-perf's run checks (digests, traces held to the run, samples to physical ranges); rebuilt from the run files`,
    };
  if (runFile && parsed.data.run.status !== runFile.status) {
    return {
      note: `${file} says the run is ${parsed.data.run.status} but run.json says ${runFile.status}; rebuilt from the run files`,
    };
  }
  const changed = findChangedStream(parsed.data, await readStreamSizes(dir));
  if (changed) return { note: `${file} ${changed}; rebuilt from the run files` };
  // A same-size edit, or plan.json swapped: data.json cannot say, run.json's digests can.
  const checks = await readRunFileChecks({ dir, run: runFile, plan: await readPlanFileIfPresent(dir) });
  const failed = [...checks.mismatches.keys(), ...(checks.planProblem ? ['plan.json'] : [])];
  if (failed.length > 0)
    return {
      note: `${file} may hide a change to ${failed.join(', ')} since it was made (run.json's checks fail); rebuilt from the run files`,
    };
  const lane = await readLane(dir);
  if (parsed.data.run.lane !== lane) {
    return {
      note: `${file} was made in lane ${parsed.data.run.lane}, but the run is lane ${lane} (${LANE_FILE}); rebuilt from the run files`,
    };
  }
  return { model: parsed.data };
}

/** The size of each input file of the run dir now (undefined: absent), traces included. */
async function readStreamSizes(dir: string): Promise<Map<string, number | undefined>> {
  const names = [
    ...Object.values(RUN_FILES),
    STEP_USAGE_FILE,
    ...(await readdir(dir)).filter((name) => TRACE_FILE.test(name)),
  ];
  const sizes = new Map<string, number | undefined>();
  for (const name of names) {
    sizes.set(name, (await statRunFile(path.join(dir, name)))?.size);
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

export async function loadRunModel({ dir, nowMs }: { dir: string; nowMs: number }): Promise<LoadedRun> {
  const runFile = await readRunFile(dir);
  const plan = await readPlanFileIfPresent(dir);
  const stored = await readStoredModel(dir, runFile);
  const notes = stored.note ? [stored.note] : [];
  const stamp = path.basename(path.resolve(dir));
  if (stored.model) return { dir, stamp, model: stored.model, runFile, plan, source: 'data.json', notes };
  const model = buildReportModel(await readRunInputs({ dir, generatedAtMs: nowMs }));
  return { dir, stamp, model, runFile, plan, source: 'run files', notes };
}
