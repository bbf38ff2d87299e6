import type { DataFile, Plan, RunFile, RunWhy, TargetSummary } from '../artifacts/index.js';
import { UsageError } from '../shared/errors.js';
import type { RunDrag } from './build-run-drag.js';
import { buildDiffExplanation } from './build-diff-explanation.js';
import type { MakespanExplanation } from './build-makespan-explanation.js';
import { roundTo, toDelta, type Delta } from './to-delta.js';

// Two runs → what changed: per target build/total/upload seconds, upload bytes and node; targets only in one run;
// the makespan; the critical path. Pure. Runs of different harnesses are refused unless `force` (the spec: do not
// quote a number from one harness as if it came from another). Deltas are B − A: positive means B is slower/bigger.

const RUN_DIFF_VERSION = 4;

export interface RunRef {
  stamp: string;
  harness: string;
  lane: string;
  namespace: string | null;
  status: string;
}

export interface TargetDiff {
  target: string;
  presence: 'both' | 'only-a' | 'only-b';
  status: { a: string | null; b: string | null };
  node: { a: string | null; b: string | null; moved: boolean };
  buildSeconds: Delta;
  totalSeconds: Delta;
  uploadSeconds: Delta;
  uploadBytes: Delta;
  /** On the critical path the diff reports (see CriticalPathDiff.source) in A, in B. */
  onCriticalPath: { a: boolean; b: boolean };
  /** Input files (data.json `partial`) whose damage leaves this target's figures partial in A, in B. */
  partial: { a: string[]; b: string[] };
  /** What its RUN steps used (data.json targets[].usage; docs/step-usage.md): CPU seconds, the largest peak. */
  usage: { cpuSeconds: Delta; memoryPeakBytes: Delta; flags: { a: string[]; b: string[] } };
}

/** A loud warning of one run (data.json `summary.warnings`): the figures it touches are partial or may read 0. */
interface SideWarning {
  side: 'a' | 'b';
  stream: string | null;
  message: string;
}

interface PathEntryDiff {
  target: string;
  /** Drag on the path of each run (seconds the makespan would shrink were the target free), null when off it or unknown. */
  dragSeconds: { a: number | null; b: number | null };
}

interface CriticalPathDiff {
  /** drag: both runs had run.json + plan.json, so the paths come from the drag analysis; else from data.json. */
  source: 'drag' | 'data.json';
  a: string[];
  b: string[];
  same: boolean;
  /** On B's path, not on A's. */
  joined: string[];
  /** On A's path, not on B's. */
  left: string[];
  seconds: Delta;
  entries: PathEntryDiff[];
}

export interface RunDiff {
  version: typeof RUN_DIFF_VERSION;
  a: RunRef;
  b: RunRef;
  /** True when the harnesses differ and the comparison was forced. */
  crossHarness: boolean;
  /** True when the lanes differ and the comparison was forced. */
  crossLane: boolean;
  makespanSeconds: Delta;
  /** The makespan change split by cause (version 3); null when either run lacks run.json or plan.json (a note says why). */
  explanation: MakespanExplanation | null;
  plannedMakespanSeconds: Delta;
  targets: TargetDiff[];
  onlyInA: string[];
  onlyInB: string[];
  criticalPath: CriticalPathDiff;
  /** Trace files whose damage leaves each run's makespan and critical path partial (data.json `summary.partial`). */
  partial: { a: string[]; b: string[] };
  /** Every loud warning of either run; `diff` exits 1 when there is one. */
  warnings: SideWarning[];
  notes: string[];
  /**
   * Why B's targets missed the cache against A, and what each miss cost (version 4; docs/explain.md): B's
   * data.json `why` as `diff` computed it; null when B is not a warm or bench run.
   */
  why: { run: RunWhy; targets: Pick<TargetSummary, 'target' | 'why' | 'onCriticalPath'>[] } | null;
}

export interface DiffSide {
  model: DataFile;
  /** Critical path with drag from run.json + plan.json, when both exist. */
  drag?: RunDrag;
  /** run.json and plan.json, for the makespan explanation; without both there is none. */
  runFile?: RunFile;
  plan?: Plan;
  notes?: readonly string[];
}

export interface BuildRunDiffOptions {
  a: DiffSide;
  b: DiffSide;
  force?: boolean;
  /** For tests: the Shapley method's knobs (exact up to this many causes, sampled permutations, seed). */
  shapley?: { exactMaxPlayers?: number; permutations?: number; seed?: number };
}

function toRunRef(model: DataFile): RunRef {
  return {
    stamp: model.run.stamp,
    harness: model.run.harness,
    lane: model.run.lane,
    namespace: model.run.namespace,
    status: model.run.status,
  };
}

/** Throws a UsageError when the harnesses or the lanes differ and the caller did not force the comparison. */
function checkSameHarness({ a, b, force }: { a: RunRef; b: RunRef; force: boolean }): void {
  if (force) return;
  if (a.lane !== b.lane)
    throw new UsageError(
      `RUN_A ${a.stamp} was recorded in lane ${a.lane} and RUN_B ${b.stamp} in lane ${b.lane}: runs recorded on different fleets or setups are not comparable figure by figure`,
      {
        hint: `compare runs of one lane, or pass --force to diff them anyway (the output is then labelled cross-lane: ${a.lane} vs ${b.lane})`,
      },
    );
  if (a.harness === b.harness) return;
  throw new UsageError(
    `RUN_A ${a.stamp} is a ${a.harness} run and RUN_B ${b.stamp} is a ${b.harness} run: a number from one harness must not be quoted as if it came from another (cold builds everything with no cache, warm runs with caches on, bench runs one target at a time)`,
    {
      hint: `compare runs of the same harness, or pass --force to diff them anyway (the output is then labelled cross-harness: ${a.harness} vs ${b.harness})`,
    },
  );
}

function toTargetDiff({
  target,
  a,
  b,
  path,
}: {
  target: string;
  a: TargetSummary | undefined;
  b: TargetSummary | undefined;
  path: CriticalPathDiff;
}): TargetDiff {
  const pick = <K extends keyof TargetSummary>(
    t: TargetSummary | undefined,
    key: K,
  ): TargetSummary[K] | null => (t ? t[key] : null);
  const [nodeA, nodeB] = [pick(a, 'node'), pick(b, 'node')];
  return {
    target,
    presence: a && b ? 'both' : a ? 'only-a' : 'only-b',
    status: { a: pick(a, 'status'), b: pick(b, 'status') },
    node: { a: nodeA, b: nodeB, moved: nodeA !== null && nodeB !== null && nodeA !== nodeB },
    buildSeconds: toDelta(pick(a, 'buildSeconds'), pick(b, 'buildSeconds')),
    totalSeconds: toDelta(pick(a, 'totalSeconds'), pick(b, 'totalSeconds')),
    uploadSeconds: toDelta(pick(a, 'uploadSeconds'), pick(b, 'uploadSeconds')),
    uploadBytes: toDelta(pick(a, 'uploadBytes'), pick(b, 'uploadBytes')),
    onCriticalPath: { a: path.a.includes(target), b: path.b.includes(target) },
    partial: { a: [...(a?.partial ?? [])], b: [...(b?.partial ?? [])] },
    usage: {
      cpuSeconds: toDelta(a?.usage?.cpuSeconds, b?.usage?.cpuSeconds),
      memoryPeakBytes: toDelta(a?.usage?.memoryPeakBytes, b?.usage?.memoryPeakBytes),
      flags: { a: toUsageFlags(a), b: toUsageFlags(b) },
    },
  };
}

/** The flags of a target's steps, each once (memory-near-limit, oom). */
const toUsageFlags = (t: TargetSummary | undefined): string[] => [
  ...new Set((t?.usage?.steps ?? []).flatMap((step) => step.flags)),
];

/** Both-present first, worst Δtotal first (ties by name); then targets only in A, then only in B. */
function compareTargetDiffs(x: TargetDiff, y: TargetDiff): number {
  const rank = { both: 0, 'only-a': 1, 'only-b': 2 } as const;
  return (
    rank[x.presence] - rank[y.presence] ||
    (y.totalSeconds.delta ?? 0) - (x.totalSeconds.delta ?? 0) ||
    x.target.localeCompare(y.target)
  );
}

function buildTargetDiffs({
  a,
  b,
  path,
}: {
  a: DataFile;
  b: DataFile;
  path: CriticalPathDiff;
}): TargetDiff[] {
  const byName = (model: DataFile) => new Map(model.summary.targets.map((t) => [t.target, t]));
  const [mapA, mapB] = [byName(a), byName(b)];
  const names = [...new Set([...mapA.keys(), ...mapB.keys()])];
  return names
    .map((target) => toTargetDiff({ target, a: mapA.get(target), b: mapB.get(target), path }))
    .sort(compareTargetDiffs);
}

/** A side's critical path: the drag analysis when both sides have one (exact, dependency and queue edges), else data.json's. */
function toPathOf(side: DiffSide, useDrag: boolean): { targets: string[]; seconds: number | null } {
  const path = side.drag?.path;
  if (useDrag && path && path.length > 0)
    return {
      targets: path.map((e) => e.target),
      seconds: roundTo(path[path.length - 1]!.finishSeconds - path[0]!.startSeconds),
    };
  return {
    targets: [...side.model.summary.criticalPath.measured],
    seconds: side.model.summary.criticalPath.measuredSeconds,
  };
}

function buildCriticalPathDiff(a: DiffSide, b: DiffSide): CriticalPathDiff {
  const useDrag = a.drag !== undefined && b.drag !== undefined;
  const [pathA, pathB] = [toPathOf(a, useDrag), toPathOf(b, useDrag)];
  const dragOf = (side: DiffSide, target: string): number | null =>
    side.drag?.path.find((e) => e.target === target)?.dragSeconds ?? null;
  const names = [...pathA.targets, ...pathB.targets.filter((t) => !pathA.targets.includes(t))];
  return {
    source: useDrag ? 'drag' : 'data.json',
    a: pathA.targets,
    b: pathB.targets,
    same:
      pathA.targets.length === pathB.targets.length && pathA.targets.every((t, i) => pathB.targets[i] === t),
    joined: pathB.targets.filter((t) => !pathA.targets.includes(t)),
    left: pathA.targets.filter((t) => !pathB.targets.includes(t)),
    seconds: toDelta(pathA.seconds, pathB.seconds),
    entries: names.map((target) => ({ target, dragSeconds: { a: dragOf(a, target), b: dragOf(b, target) } })),
  };
}

function buildNotes({ a, b, crossHarness }: { a: DiffSide; b: DiffSide; crossHarness: boolean }): string[] {
  const notes: string[] = [];
  const [refA, refB] = [toRunRef(a.model), toRunRef(b.model)];
  if (refA.lane !== refB.lane)
    notes.push(
      `cross-lane comparison forced: A is lane ${refA.lane}, B is lane ${refB.lane}; the deltas mix two fleets or setups`,
    );
  if (crossHarness)
    notes.push(
      `cross-harness comparison forced: A is ${refA.harness}, B is ${refB.harness}; the deltas mix what the two harnesses measure`,
    );
  if (refA.harness === 'unknown' && refB.harness === 'unknown')
    notes.push(
      'neither run has a run.json, so their harnesses are unknown: check they come from the same harness before quoting a delta',
    );
  for (const [label, ref] of [
    ['A', refA],
    ['B', refB],
  ] as const) {
    if (ref.status === 'running')
      notes.push(`run ${label} (${ref.stamp}) is still running: its figures are partial`);
    if (ref.status === 'failed' || ref.status === 'interrupted')
      notes.push(`run ${label} (${ref.stamp}) ${ref.status}: targets that did not finish are not comparable`);
  }
  for (const [label, side] of [
    ['A', a],
    ['B', b],
  ] as const)
    for (const note of side.notes ?? []) notes.push(`${label}: ${note}`);
  return notes;
}

export function buildRunDiff({ a, b, force = false, shapley }: BuildRunDiffOptions): RunDiff {
  const [refA, refB] = [toRunRef(a.model), toRunRef(b.model)];
  checkSameHarness({ a: refA, b: refB, force });
  const crossHarness = refA.harness !== refB.harness;
  const crossLane = refA.lane !== refB.lane;
  const criticalPath = buildCriticalPathDiff(a, b);
  const targets = buildTargetDiffs({ a: a.model, b: b.model, path: criticalPath });
  const explained = buildDiffExplanation({ a, b, criticalPathB: criticalPath.b, shapley });
  return {
    version: RUN_DIFF_VERSION,
    a: refA,
    b: refB,
    crossHarness,
    crossLane,
    makespanSeconds: toDelta(a.model.summary.makespanSeconds, b.model.summary.makespanSeconds),
    explanation: explained.explanation,
    plannedMakespanSeconds: toDelta(
      a.model.summary.plannedMakespanSeconds,
      b.model.summary.plannedMakespanSeconds,
    ),
    targets,
    onlyInA: targets.filter((t) => t.presence === 'only-a').map((t) => t.target),
    onlyInB: targets.filter((t) => t.presence === 'only-b').map((t) => t.target),
    criticalPath,
    partial: { a: [...a.model.summary.partial], b: [...b.model.summary.partial] },
    warnings: (['a', 'b'] as const).flatMap((side) =>
      (side === 'a' ? a : b).model.summary.warnings
        .filter((w) => w.level === 'loud')
        .map((w) => ({ side, stream: w.stream, message: w.message })),
    ),
    notes: [...explained.notes, ...buildNotes({ a, b, crossHarness })],
    why:
      b.model.summary.why === null
        ? null
        : {
            run: b.model.summary.why,
            targets: b.model.summary.targets.map(({ target, why, onCriticalPath }) => ({
              target,
              why,
              onCriticalPath,
            })),
          },
  };
}
