import type { TargetCost } from '../config/index.js';
import type { TargetTrace } from '../collect/index.js';
import type { RunFile } from '../artifacts/index.js';
import type { BuildObservation } from './fit-node-speeds.js';
import { poolTargetCost, type PooledSpreads, type TargetSamples } from './pool-costs.js';
import { measureSetupSeconds } from './measure-setup.js';

// `rocm-perf costs --from RUN...`, the pure part: each run's traces → build seconds and cache bytes per target
// (every rule below applied per run), pooled over the runs (median, spread, count; src/plan/pool-costs.ts) and
// merged over the current target-costs. A warm run's build seconds are warm figures (`warm-build`): its steps hit
// the layer cache and sccache. A cold or bench run's bytes are not a normal run's export (an old cold run
// under-counted aiter-wheel 4.3×), so they never become `cache` lines; they are what such a run uploads, the image
// push alone (the cache export is cleared), and become `image` lines, which cold plans use.

interface DerivedCost {
  buildSeconds: number;
  warmBuildSeconds: number | undefined;
  cacheBytes: number | undefined;
  imageBytes?: number | undefined;
  setupSeconds?: number | undefined;
  warmSetupSeconds?: number | undefined;
  memoryBytes?: number | undefined;
}

export interface DerivedCosts {
  costs: Map<string, DerivedCost>;
  /** Per target, the spread of each figure (sigma of ln, runs); a figure no run measured keeps its old spread. */
  spreads: Map<string, PooledSpreads>;
  /** One line per decision a person should know about. */
  notes: string[];
  updated: {
    build: string[];
    warmBuild: string[];
    cache: string[];
    image: string[];
    setup: string[];
    memory: string[];
  };
  /** Each measured build as the node ran it (seconds not normalised), for the speed fit (src/plan/learn-fleet.ts). */
  builds: BuildObservation[];
}

/** One run dir's contents, as `costs` reads them. */
export interface RunTraces {
  run: RunFile;
  traces: ReadonlyMap<string, TargetTrace>;
  /** Per target, its memory peak in this run (data.json `targets[].usage.memoryPeakBytes`), where recorded. */
  memoryPeaks?: ReadonlyMap<string, number>;
}

export type DeriveTargetCostsOptions = (
  { run: RunFile; traces: ReadonlyMap<string, TargetTrace> } | { runs: readonly RunTraces[] }
) & {
  current: ReadonlyMap<string, TargetCost>;
  /** A target whose steps were at least this share cached keeps its build figure. Default 0.5. */
  maxCachedShare?: number;
};

const isWarmRun = (run: RunFile) => run.harness === 'warm';
const isColdRun = (run: RunFile) => run.harness === 'cold' || run.mode === 'cold';

/** Why a figure from one run is not taken; `kept` ends the note when one run is all there is. */
interface Refusal {
  reason: string;
  kept: string;
}

function deriveBuild(
  target: string,
  trace: TargetTrace,
  { run, maxCachedShare }: { run: RunFile; maxCachedShare: number },
): { seconds: number; rawSeconds: number } | Refusal {
  if (trace.totalSteps === 0 || trace.buildSeconds <= 0)
    return { reason: 'the trace has no step spans', kept: 'build figure kept' };
  const cachedShare = trace.cachedSteps / trace.totalSteps;
  if (!isWarmRun(run) && cachedShare >= maxCachedShare) {
    return {
      reason: `${trace.cachedSteps}/${trace.totalSteps} steps were cached, so its ${trace.buildSeconds.toFixed(0)} s is not compile cost`,
      kept: 'build figure kept (take build seconds from a cold run)',
    };
  }
  const nodeName = run.targets[target]?.node;
  const speed = run.nodes.find((node) => node.name === nodeName)?.speed ?? 1;
  return { seconds: trace.buildSeconds * speed, rawSeconds: trace.buildSeconds };
}

/** The sum of a trace's upload sizes; refused without upload spans or with an upload of unknown size. */
function sumUploads(trace: TargetTrace, kind: 'cache' | 'image'): { bytes: number } | Refusal {
  if (trace.uploads.length === 0)
    return { reason: 'the trace has no upload spans', kept: `${kind} figure kept` };
  const unknown = trace.uploads.filter((upload) => upload.bytes === null).length;
  if (unknown > 0)
    return {
      reason: `${unknown} of ${trace.uploads.length} uploads carry no size`,
      kept: `${kind} figure kept rather than under-count`,
    };
  return { bytes: trace.uploads.reduce((sum, upload) => sum + (upload.bytes ?? 0), 0) };
}

/** A normal run's whole export: warm runs only (cold and bench runs clear the cache export). */
function deriveCache(trace: TargetTrace, run: RunFile): { bytes: number } | Refusal | undefined {
  return isColdRun(run) ? undefined : sumUploads(trace, 'cache');
}

/** What a cold or bench run uploads: its image push alone. */
function deriveImage(trace: TargetTrace, run: RunFile): { bytes: number } | Refusal | undefined {
  return isColdRun(run) ? sumUploads(trace, 'image') : undefined;
}

/** `run s1 is a warm run` / `runs s1, s2 are warm runs`, and the matching possessive. */
function describeRuns(stamps: readonly string[], kind: string): { subject: string; its: string } {
  return stamps.length === 1
    ? { subject: `run ${stamps[0]} is a ${kind} run`, its: 'its' }
    : { subject: `runs ${stamps.join(', ')} are ${kind} runs`, its: 'their' };
}

function describeHarnesses(runs: readonly RunFile[]): string[] {
  const notes: string[] = [];
  const stampsOf = (keep: (run: RunFile) => boolean) => runs.filter(keep).map((run) => run.stamp);
  const warm = stampsOf(isWarmRun);
  if (warm.length > 0) {
    const { subject, its } = describeRuns(warm, 'warm');
    notes.push(
      `${subject}: ${its} build seconds are written as \`warm-build\` lines (caches on), and the cold \`build\` lines kept`,
    );
  }
  const bench = stampsOf((run) => run.harness === 'bench');
  if (bench.length > 0) {
    const { subject, its } = describeRuns(bench, 'bench');
    notes.push(
      `${subject}: ${its} byte figures are written as \`image\` lines and the cache lines kept. Bench builds with --no-cache into its own namespace and clears the cache export, so it pushes only the image: what a cold plan uploads, not a normal run's export (take \`cache\` bytes from a warm run).`,
    );
  }
  const cold = stampsOf((run) => run.harness !== 'bench' && isColdRun(run));
  if (cold.length > 0) {
    const { subject, its } = describeRuns(cold, 'cold');
    notes.push(
      `${subject}: ${its} byte figures are written as \`image\` lines and the cache lines kept. A cold run clears the cache export (--set *.cache-to=), so it pushes only the image: what a cold plan uploads, not a normal run's export (the old harness skipped the image push instead, which under-counted a target's upload up to 4.3×; take \`cache\` bytes from a warm run).`,
    );
  }
  return notes;
}

interface TargetMeasurement {
  samples: {
    buildSeconds: number[];
    warmBuildSeconds: number[];
    cacheBytes: number[];
    imageBytes: number[];
    setupSeconds: number[];
    warmSetupSeconds: number[];
  };
  notes: string[];
  builds: BuildObservation[];
}

/** One target's figures from every run, each run's rules applied to that run. */
function measureTarget(
  target: string,
  runs: readonly RunTraces[],
  maxCachedShare: number,
): TargetMeasurement {
  const pooled = runs.length > 1;
  const measured: TargetMeasurement = {
    samples: {
      buildSeconds: [],
      warmBuildSeconds: [],
      cacheBytes: [],
      imageBytes: [],
      setupSeconds: [],
      warmSetupSeconds: [],
    },
    notes: [],
    builds: [],
  };
  const noteOf = (run: RunFile, refusal: Refusal) =>
    pooled
      ? `${target} (run ${run.stamp}): ${refusal.reason}; not counted`
      : `${target}: ${refusal.reason}; ${refusal.kept}`;
  for (const { run, traces } of runs) {
    const trace = traces.get(target);
    const outcome = run.targets[target];
    if (!trace) continue;
    if (outcome?.status !== 'ok') {
      const status = outcome?.status ?? 'not in run.json';
      measured.notes.push(
        pooled
          ? `${target} (run ${run.stamp}): ${status} in that run; not counted`
          : `${target}: ${status} in this run; figures kept`,
      );
      continue;
    }
    const build = deriveBuild(target, trace, { run, maxCachedShare });
    const cache = deriveCache(trace, run);
    if ('reason' in build) measured.notes.push(noteOf(run, build));
    else {
      (isWarmRun(run) ? measured.samples.warmBuildSeconds : measured.samples.buildSeconds).push(
        build.seconds,
      );
      measured.builds.push({ run: run.stamp, node: outcome.node, target, seconds: build.rawSeconds });
      (isWarmRun(run) ? measured.samples.warmSetupSeconds : measured.samples.setupSeconds).push(
        measureSetupSeconds(trace, outcome),
      );
    }
    for (const [bytes, into] of [
      [cache, measured.samples.cacheBytes],
      [deriveImage(trace, run), measured.samples.imageBytes],
    ] as const) {
      if (bytes && 'reason' in bytes) measured.notes.push(noteOf(run, bytes));
      else if (bytes) into.push(bytes.bytes);
    }
  }
  return measured;
}

const toRuns = (options: DeriveTargetCostsOptions): readonly RunTraces[] =>
  'runs' in options ? options.runs : [{ run: options.run, traces: options.traces }];

export function deriveTargetCosts(options: DeriveTargetCostsOptions): DerivedCosts {
  const { current, maxCachedShare = 0.5 } = options;
  const runs = toRuns(options);
  const notes = describeHarnesses(runs.map(({ run }) => run));
  const updated = {
    build: [] as string[],
    warmBuild: [] as string[],
    cache: [] as string[],
    image: [] as string[],
    setup: [] as string[],
    memory: [] as string[],
  };
  const costs = new Map<string, DerivedCost>();
  const spreads = new Map<string, PooledSpreads>();
  const builds: BuildObservation[] = [];
  const traced = runs.flatMap(({ traces }) => [...traces.keys()]);
  const names = [...new Set([...current.keys(), ...traced])].sort();
  for (const target of names) {
    const measured = measureTarget(target, runs, maxCachedShare);
    notes.push(...measured.notes);
    builds.push(...measured.builds);
    markUpdated(updated, target, measured.samples);
    const pooled = poolTargetCost(current.get(target), measured.samples);
    const { buildSeconds, warmBuildSeconds, cacheBytes, imageBytes, setupSeconds, warmSetupSeconds } =
      pooled.cost;
    if (buildSeconds === undefined) {
      notes.push(`${target}: no build figure anywhere; left out`);
      continue;
    }
    const memory = findMemoryPeak(target, runs);
    if (memory !== undefined) updated.memory.push(target);
    costs.set(target, {
      buildSeconds,
      warmBuildSeconds,
      cacheBytes,
      imageBytes,
      setupSeconds,
      warmSetupSeconds,
      memoryBytes: memory ?? current.get(target)?.memoryBytes,
    });
    spreads.set(target, pooled.spreads);
  }
  return { costs, spreads, notes, updated, builds };
}

/**
 * The largest memory peak any run measured for the target (ok or not: a step that ran out of memory shows what it
 * needs), not the median: placement must keep every run's peak in memory. Undefined when no run recorded one.
 */
function findMemoryPeak(target: string, runs: readonly RunTraces[]): number | undefined {
  const peaks = runs.flatMap(({ memoryPeaks }) => {
    const bytes = memoryPeaks?.get(target);
    return bytes !== undefined && bytes > 0 ? [bytes] : [];
  });
  return peaks.length > 0 ? Math.max(...peaks) : undefined;
}

function markUpdated(updated: DerivedCosts['updated'], target: string, samples: TargetSamples): void {
  if (samples.buildSeconds.length > 0) updated.build.push(target);
  if (samples.warmBuildSeconds.length > 0) updated.warmBuild.push(target);
  if (samples.cacheBytes.length > 0) updated.cache.push(target);
  if ((samples.imageBytes?.length ?? 0) > 0) updated.image.push(target);
  if ((samples.setupSeconds?.length ?? 0) + (samples.warmSetupSeconds?.length ?? 0) > 0)
    updated.setup.push(target);
}
