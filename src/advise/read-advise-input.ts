import { readRunFile, type RunDir } from '../run-dir/index.js';
import { RUN_DIR_FILES } from '../artifacts/index.js';
import path from 'node:path';
import type { DataFile, Plan, RunFile } from '../artifacts/index.js';
import { statRunFile } from '../shared/open-run-file.js';

import { readRegistryLog, type TargetTrace } from '../collect/index.js';
import type { SideFigures } from '../diff/index.js';
import { buildSideFigures } from '../diff/build-side-figures.js';
import { readProvenanceFile } from '../explain/index.js';
import { listRuns, readLane, readTraceFiles } from '../run-dir/index.js';
import { isRocmPerfError } from '../shared/errors.js';

import { totalLengthMs } from '../shared/intervals.js';
import type { AdviseInput, BlobPush, LaneRunFact, ProvenanceFact } from './advise-input.js';
import { findBlobPushes } from './find-blob-pushes.js';
import { toProvenanceFact } from './parse-provenance.js';
import { replayWhatIf } from './replay-what-if.js';

// The advisor's reader: one run dir (its model already built) and the earlier runs of its lane under the runs root
// → AdviseInput. Every file is untrusted and read through the confined readers; a file that is absent or does not
// parse gives nothing for its part (the rules then say what they lacked), never a guess.

export interface ReadAdviseInputOptions {
  runDir: RunDir;
  model: DataFile;
  runFile: RunFile | undefined;
  plan: Plan | undefined;
  /** How many runs of the lane to compare, this one included. */
  runs: number;
  /** The runs root the lane's earlier runs are listed from; default: the run dir's parent. */
  root?: string;
}

async function readProvenance(
  runDir: RunDir,
  targets: readonly string[],
): Promise<Map<string, ProvenanceFact>> {
  const facts = new Map<string, ProvenanceFact>();
  for (const target of targets) {
    // A damaged or refused file gives no facts here; the report's explanation names it (the same reader).
    const fact = await readProvenanceFile(runDir, target, [], toProvenanceFact);
    if (fact) facts.set(target, fact);
  }
  return facts;
}

function toSide(options: ReadAdviseInputOptions): { side: SideFigures | null; sideMissing: string | null } {
  const { runFile, plan, model } = options;
  if (!runFile) return { side: null, sideMissing: 'the run dir has no run.json' };
  if (!plan) return { side: null, sideMissing: 'the run dir has no plan.json' };
  try {
    const side = buildSideFigures({ runFile, plan, model });
    replayWhatIf(side, () => undefined);
    return { side, sideMissing: null };
  } catch (error) {
    if (!isRocmPerfError(error)) throw error;
    return { side: null, sideMissing: error.message };
  }
}

function toUncachedSeconds(traces: readonly TargetTrace[]): Map<string, number> {
  return new Map(
    traces.map((trace) => [
      trace.target,
      totalLengthMs(trace.steps.filter((step) => !step.cached).map((step) => [step.startMs, step.endMs])) /
        1000,
    ]),
  );
}

/** Digests some target's trace shows pushed more than once: the only ones the registry log is read for. */
function findTwicePushed(pushes: ReadonlyMap<string, readonly BlobPush[]>): Set<string> {
  const twice = new Set<string>();
  for (const list of pushes.values()) {
    const seen = new Set<string>();
    for (const push of list) (seen.has(push.digest) ? twice : seen).add(push.digest);
  }
  return twice;
}

/**
 * The registry log's successful blob writes of the digests pushed twice (digest → repositories). Read only when a
 * trace shows such a digest: a 300 MB log is not parsed a second time for nothing.
 */
async function readBlobWrites(
  runDir: RunDir,
  runFile: RunFile | undefined,
  digests: ReadonlySet<string>,
): Promise<Map<string, string[]> | null> {
  if (!runFile) return null;
  const file = runDir.file(RUN_DIR_FILES.registry);
  if ((await statRunFile(file).catch(() => undefined)) === undefined) return null;
  if (digests.size === 0) return new Map();
  const { records } = await readRegistryLog({
    path: file,
    format: runFile.registryLogFormat,
    cachePatterns: runFile.registryCachePatterns,
    keep: (record) =>
      record.kind === 'blob-write' &&
      record.status >= 200 &&
      record.status < 300 &&
      record.reference !== undefined &&
      digests.has(record.reference),
  });
  const writes = new Map<string, string[]>();
  for (const record of records)
    if (record.reference !== undefined && record.repository !== undefined)
      writes.set(record.reference, [...(writes.get(record.reference) ?? []), record.repository]);
  return writes;
}

/** The lane's earlier runs of the same harness and arch, newest first, at most `count`. */
async function readHistory(
  options: ReadAdviseInputOptions,
  targets: readonly string[],
  count: number,
): Promise<LaneRunFact[]> {
  if (count <= 0) return [];
  const root = options.root ?? path.dirname(path.resolve(options.runDir.dir));
  const lane = await readLane(options.runDir);
  const self = path.resolve(options.runDir.dir);
  const history: LaneRunFact[] = [];
  for (const entry of await listRuns(root, options.runDir.open)) {
    if (history.length >= count) break;
    if (path.resolve(entry.dir) === self) continue;
    const sibling = options.runDir.open(entry.dir);
    const run = await readRunFile(sibling).catch(() => undefined);
    const started = options.runFile?.startedAtMs;
    if (!run || run.harness !== options.runFile?.harness || run.arch !== options.runFile.arch) continue;
    if (started !== undefined && !(run.startedAtMs < started)) continue;
    if ((await readLane(sibling).catch(() => undefined)) !== lane) continue;
    history.push({ stamp: entry.stamp, provenance: await readProvenance(sibling, targets) });
  }
  return history;
}

export async function readAdviseInput(options: ReadAdviseInputOptions): Promise<AdviseInput> {
  const { runDir, model, runFile } = options;
  const targets = model.summary.targets.map((t) => t.target);
  const { traces } = await readTraceFiles(runDir, { nowMs: model.generatedAtMs });
  const pushes = new Map(traces.map((trace) => [trace.target, findBlobPushes(trace.uploads)]));
  return {
    stamp: path.basename(path.resolve(runDir.dir)),
    model,
    ...toSide(options),
    provenance: await readProvenance(runDir, targets),
    pushes,
    uncachedSeconds: toUncachedSeconds(traces),
    registryBlobWrites: await readBlobWrites(runDir, runFile, findTwicePushed(pushes)),
    history: await readHistory(options, targets, options.runs - 1),
  };
}
