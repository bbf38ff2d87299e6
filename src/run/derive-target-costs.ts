import type { TargetCost } from '../config/parse-target-costs.js';
import type { TargetTrace } from '../collect/types.js';
import type { RunFile } from '../artifacts/index.js';

// `rocm-perf costs --from RUN`, the pure part: a run's traces → build seconds and cache bytes per
// target, merged over the current target-costs. A warm run's build seconds are warm figures (`warm-build`):
// its steps hit the layer cache and sccache. Byte figures from a cold run are refused: its export
// is not a normal run's (a cold run under-counted aiter-wheel 4.3×).

export interface DerivedCost {
  buildSeconds: number;
  warmBuildSeconds: number | undefined;
  cacheBytes: number | undefined;
}

export interface DerivedCosts {
  costs: Map<string, DerivedCost>;
  /** One line per decision a person should know about. */
  notes: string[];
  updated: { build: string[]; warmBuild: string[]; cache: string[] };
}

const isWarmRun = (run: RunFile) => run.harness === 'warm';

export interface DeriveTargetCostsOptions {
  run: RunFile;
  traces: ReadonlyMap<string, TargetTrace>;
  current: ReadonlyMap<string, TargetCost>;
  /** A target whose steps were at least this share cached keeps its build figure. Default 0.5. */
  maxCachedShare?: number;
}

function deriveBuild(
  target: string,
  trace: TargetTrace,
  run: RunFile,
  maxCachedShare: number,
): { seconds?: number; note?: string } {
  if (trace.totalSteps === 0 || trace.buildSeconds <= 0)
    return { note: `${target}: the trace has no step spans; build figure kept` };
  const cachedShare = trace.cachedSteps / trace.totalSteps;
  if (!isWarmRun(run) && cachedShare >= maxCachedShare) {
    return {
      note: `${target}: ${trace.cachedSteps}/${trace.totalSteps} steps were cached, so its ${trace.buildSeconds.toFixed(0)} s is not compile cost; build figure kept (take build seconds from a cold run)`,
    };
  }
  const nodeName = run.targets[target]?.node;
  const speed = run.nodes.find((node) => node.name === nodeName)?.speed ?? 1;
  return { seconds: trace.buildSeconds * speed };
}

function deriveCache(target: string, trace: TargetTrace, run: RunFile): { bytes?: number; note?: string } {
  if (run.harness === 'cold' || run.mode === 'cold') return {};
  if (trace.uploads.length === 0)
    return { note: `${target}: the trace has no upload spans; cache figure kept` };
  const unknown = trace.uploads.filter((upload) => upload.bytes === null).length;
  if (unknown > 0)
    return {
      note: `${target}: ${unknown} of ${trace.uploads.length} uploads carry no size; cache figure kept rather than under-count`,
    };
  return { bytes: trace.uploads.reduce((sum, upload) => sum + (upload.bytes ?? 0), 0) };
}

export function deriveTargetCosts({
  run,
  traces,
  current,
  maxCachedShare = 0.5,
}: DeriveTargetCostsOptions): DerivedCosts {
  const notes: string[] = [];
  const updated = { build: [] as string[], warmBuild: [] as string[], cache: [] as string[] };
  const costs = new Map<string, DerivedCost>();
  if (isWarmRun(run))
    notes.push(
      `run ${run.stamp} is a warm run: its build seconds are written as \`warm-build\` lines (caches on), and the cold \`build\` lines kept`,
    );
  if (run.harness === 'bench') {
    notes.push(
      `run ${run.stamp} is a bench run: its byte figures are refused and the cache lines kept. Bench builds with --no-cache into its own namespace and clears the cache export, so it pushes only the image. Take bytes from a warm run.`,
    );
  } else if (run.harness === 'cold' || run.mode === 'cold') {
    notes.push(
      `run ${run.stamp} is a cold run: its byte figures are refused and the cache lines kept. A cold run's export omits part of what a normal run transfers (this harness clears the cache export with --set *.cache-to=; the old one skipped the image push, which under-counted aiter-wheel 4.3×). Take bytes from a warm run.`,
    );
  }
  const names = [...new Set([...current.keys(), ...traces.keys()])].sort();
  for (const target of names) {
    const old = current.get(target);
    const trace = traces.get(target);
    const outcome = run.targets[target];
    let buildSeconds = old?.buildSeconds;
    let warmBuildSeconds = old?.warmBuildSeconds;
    let cacheBytes = old?.cacheBytes;
    if (trace && outcome?.status === 'ok') {
      const build = deriveBuild(target, trace, run, maxCachedShare);
      const cache = deriveCache(target, trace, run);
      for (const note of [build.note, cache.note]) if (note) notes.push(note);
      if (build.seconds !== undefined && isWarmRun(run))
        [warmBuildSeconds, updated.warmBuild] = [build.seconds, [...updated.warmBuild, target]];
      else if (build.seconds !== undefined)
        [buildSeconds, updated.build] = [build.seconds, [...updated.build, target]];
      if (cache.bytes !== undefined) [cacheBytes, updated.cache] = [cache.bytes, [...updated.cache, target]];
    } else if (trace)
      notes.push(`${target}: ${outcome?.status ?? 'not in run.json'} in this run; figures kept`);
    if (buildSeconds === undefined) {
      notes.push(`${target}: no build figure anywhere; left out`);
      continue;
    }
    costs.set(target, { buildSeconds, warmBuildSeconds, cacheBytes });
  }
  return { costs, notes, updated };
}
