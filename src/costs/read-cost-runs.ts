import { findPoolingRefusals, type DerivedCosts, type RunTraces } from '../plan/index.js';
import { buildFlaggedRunError, gateRun } from '../report/index.js';
import { TRACE_FILE, type DataFile } from '../artifacts/index.js';
import { openRunDir, readLane, readRequiredRunFile, readRunTraces } from '../run-dir/index.js';
import { UsageError } from '../shared/errors.js';
import type { FleetNode } from '../config/index.js';
import { findFleetDifferences } from './compare-run-fleet.js';
import { findBakeDifferences, type BakePrint } from '../graph/index.js';

// The run dirs `rocm-perf costs --from RUN...` pools: each one's run.json, traces and lane (lane.txt); whether they
// pool; and the header of the costs file they give.

export interface CostRun extends RunTraces {
  dir: string;
  lane: string;
  /** Per node, its memory as the run's data.json records it (`nodes[].usage.memoryBytes`). */
  nodeMemory?: ReadonlyMap<string, number>;
}

export interface ReadCostRunsOptions {
  /** `--allow-partial`: take a flagged run's unflagged files instead of refusing it. */
  allowPartial: boolean;
  nowMs: number;
}

export async function readCostRuns(
  dirs: readonly string[],
  { allowPartial, nowMs }: ReadCostRunsOptions,
): Promise<{ runs: CostRun[]; warnings: string[] }> {
  const runs: CostRun[] = [];
  const warnings: string[] = [];
  for (const dir of dirs) {
    const runDir = openRunDir(dir);
    const run = await readRequiredRunFile(runDir);
    const gate = await gateRun({ runDir, nowMs });
    if (gate.flaggedFiles.length > 0 && !allowPartial)
      throw buildFlaggedRunError({ gate, command: 'costs', flag: '--from' });
    // The gate's flagged traces (changed, or not this run's) are taken out: no figure from a flagged file.
    const read = await readRunTraces(runDir);
    for (const file of gate.flaggedFiles) {
      const target = TRACE_FILE.exec(file)?.[1];
      if (target !== undefined && read.traces.delete(target))
        warnings.push(
          `${dir}: ${file} failed the run's checks (--allow-partial): ${target}'s figures are left out`,
        );
    }
    warnings.push(...gate.loudWarnings.map((line) => `${dir}: ${line}`));
    if (read.traces.size === 0)
      throw new UsageError(`${dir} holds no trace-<target>.json files`, {
        hint: 'costs come from a finished run with traces',
      });
    warnings.push(...read.warnings);
    const memory = readMemory(gate.model, read.traces);
    runs.push({
      dir,
      run,
      traces: read.traces,
      memoryPeaks: memory.peaks,
      nodeMemory: memory.nodes,
      lane: await readLane(runDir),
    });
  }
  return { runs, warnings };
}

/**
 * Each target's memory peak and each node's memory as the run's model records them (data.json
 * `targets[].usage.memoryPeakBytes`, `nodes[].usage.memoryBytes`: the gate's model, rebuilt from the run files when
 * data.json is stale), peaks for the targets whose trace `costs` takes. Pure.
 */
function readMemory(
  model: DataFile,
  traced: ReadonlyMap<string, unknown>,
): { peaks: Map<string, number>; nodes: Map<string, number> } {
  const peaks = new Map<string, number>();
  for (const target of model.summary.targets) {
    const bytes = target.usage?.memoryPeakBytes;
    if (traced.has(target.target) && bytes !== null && bytes !== undefined && bytes > 0)
      peaks.set(target.target, bytes);
  }
  const nodes = new Map<string, number>();
  for (const node of model.summary.nodes) {
    const bytes = node.usage?.memoryBytes;
    if (bytes !== null && bytes !== undefined && bytes > 0) nodes.set(node.node, bytes);
  }
  return { peaks, nodes };
}

/** Throws, naming each run and why, when the runs are not all of one harness, lane and arch. */
export function refuseUnpoolableRuns(runs: readonly CostRun[]): void {
  const refusals = findPoolingRefusals(
    runs.map(({ run, lane }) => ({ stamp: run.stamp, harness: run.harness, lane, arch: run.arch })),
  );
  if (refusals.length === 0) return;
  const dirOf = (stamp: string) => runs.find(({ run }) => run.stamp === stamp)?.dir ?? stamp;
  throw new UsageError(
    `--from: cannot pool these runs: ${refusals.map((r) => `${dirOf(r.stamp)}: ${r.reason}`).join('; ')}`,
    {
      hint: 'pass runs of one harness, lane and arch (one `costs` call per kind; a warm call writes warm-build and cache lines, a cold or bench call build lines)',
    },
  );
}

/**
 * Throws, naming each run and what differs, when a run was recorded on another fleet than `fleetPath`'s (its nodes,
 * addresses, links or speeds); with `allow` (--allow-other-fleet) returns the same findings as notes instead.
 */
export function refuseOtherFleetRuns(
  runs: readonly CostRun[],
  fleet: { nodes: readonly FleetNode[]; source: string },
  allow: boolean,
): string[] {
  const findings = runs.flatMap(({ dir, run }) => {
    const differences = findFleetDifferences(run, fleet);
    return differences.length === 0 ? [] : [`${dir}: ${differences.join('; ')}`];
  });
  if (findings.length === 0) return [];
  if (allow)
    return findings.map(
      (finding) => `--allow-other-fleet: learning from a run recorded on another fleet or scale: ${finding}`,
    );
  throw new UsageError(
    `--from: ${findings.length === 1 ? 'a run was' : `${findings.length} runs were`} recorded on another fleet or scale than ${fleet.source}, and would teach it wrong costs and links: ${findings.join('; ')}`,
    {
      hint: `pass runs recorded against ${fleet.source}, or --fleet the manifest they ran with; --allow-other-fleet if you mean it (e.g. fleet.yaml was edited since those runs)`,
    },
  );
}

/**
 * Throws, naming each run and the targets that differ, when a run was recorded with another bake definition than
 * the current print (`current`: what fleet.yaml's bake print gives now, for the runs' arch); with `allow`
 * (--allow-other-bake) returns the same findings as notes instead. A run recorded before run.json kept the digest
 * is a note either way: its definition cannot be compared. `current` undefined: no run has a digest to compare.
 */
export function refuseOtherBakeRuns(
  runs: readonly CostRun[],
  current: { print: BakePrint; source: string } | undefined,
  allow: boolean,
): string[] {
  const notes: string[] = [];
  const findings: string[] = [];
  for (const { dir, run } of runs) {
    if (run.bake === undefined) {
      notes.push(
        `${dir}: run.json records no bake digest (recorded before it was kept), so its bake definition is not compared with the current one`,
      );
      continue;
    }
    if (current === undefined) continue;
    const differences = findBakeDifferences(run.bake, current.print);
    if (differences.length > 0) findings.push(`${dir}: ${differences.join('; ')}`);
  }
  if (findings.length === 0) return notes;
  if (allow)
    return [
      ...notes,
      ...findings.map(
        (finding) =>
          `--allow-other-bake: learning from a run recorded with another bake definition: ${finding}`,
      ),
    ];
  throw new UsageError(
    `--from: ${findings.length === 1 ? 'a run was' : `${findings.length} runs were`} recorded with another bake definition than ${current!.source} gives now, and would teach its targets costs they no longer have: ${findings.join('; ')}`,
    {
      hint: 'pass runs recorded with the current bake definition (a new run of the changed targets); --allow-other-bake if you mean it (e.g. a change that does not touch what they cost)',
    },
  );
}

/** The costs file's comment lines: what each line means, and which runs the figures came from. */
export function buildCostsHeader(runs: readonly CostRun[], derived: DerivedCosts): string[] {
  const [first] = runs;
  const stamps = runs.map(({ run }) => run.stamp).join(', ');
  const from =
    runs.length === 1
      ? `run ${stamps} (${first?.run.harness}, ${first?.run.namespace})`
      : `runs ${stamps} (${first?.run.harness}, ${first?.run.namespace}, lane ${first?.lane}; each figure the median over the runs that measured it)`;
  return [
    'Target costs (rocm-perf plan reads this; `rocm-perf costs --from RUN...` rewrites it).',
    'build <target> <seconds>       compile cost, roughly node-independent (from a cold or bench run)',
    'warm-build <target> <seconds>  the same steps in a warm run, caches on (plan --mode warm and `warm` use it)',
    'cache <target> <bytes>         what the target transfers when it exports, from a normal (warm, pushing) run',
    'image <target> <bytes>         what a cold or bench run uploads: the image push alone (cold plans use it)',
    'setup <target> <seconds>       what the harness waits on beyond build steps and uploads (bake start, solve, export); warm-setup: in warm runs',
    'memory <target> <bytes>        its largest measured memory peak: the planner keeps it off nodes with less memory_gb',
    '<kind>-spread <target> <sigma> <runs>  how much that figure varied: robust sigma of ln(figure) over <runs> runs',
    `Last derived from ${from}: build updated for ${derived.updated.build.length}, warm-build for ${derived.updated.warmBuild.length}, cache for ${derived.updated.cache.length}, image for ${derived.updated.image.length}, setup for ${derived.updated.setup.length}, memory for ${derived.updated.memory.length} target(s).`,
  ];
}
