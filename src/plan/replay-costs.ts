import type { TargetTrace } from '../collect/index.js';
import type { RunFile } from '../artifacts/index.js';
import { UsageError } from '../shared/errors.js';
import { measureSetupSeconds } from './measure-setup.js';
import type { CostInput } from './problem.js';

// The measured costs of a recorded run, in the cost model's terms: build seconds at reference speed (the trace's
// step span × the speed of the node that ran it) and bytes uploaded (the trace's upload sizes: a warm run's whole
// export, a cold run's image push, as each kind of run transfers). A target without a usable trace takes the
// figure from the target costs, chosen for the run's mode (chooseCosts: a cold run's `image` bytes). Setup seconds (what the run
// waited on beyond the steps and the uploads) come from the run itself, from any run: they are part of what the
// run took, so a baseline without them under-counts every target. A target without a usable trace takes the target
// costs' setup figure, else 0.

type FigureSource = 'trace' | 'target-costs';

export interface ReplayCost {
  buildSeconds: number;
  cacheBytes: number;
  setupSeconds: number;
  buildFrom: FigureSource;
  bytesFrom: FigureSource;
  /** 'none': neither the run nor the target costs had one; 0 was used. */
  setupFrom: FigureSource | 'none';
}

export interface ToReplayCostsOptions {
  run: Pick<RunFile, 'stamp' | 'harness' | 'mode' | 'nodes' | 'targets'>;
  targets: readonly string[];
  traces: ReadonlyMap<string, TargetTrace>;
  /** The current target costs (.builders/target-costs) as a plan of the run's mode takes them: the fallback. */
  targetCosts?: ReadonlyMap<string, CostInput>;
}

function findUsableTrace(
  { run, traces }: ToReplayCostsOptions,
  target: string,
): { trace?: TargetTrace; why?: string } {
  const outcome = run.targets[target];
  const trace = traces.get(target);
  if (!outcome) return { why: 'not in run.json' };
  if (outcome.status !== 'ok') return { why: `${outcome.status} in this run` };
  if (!trace) return { why: 'no trace file' };
  return { trace };
}

function measureBuild(options: ToReplayCostsOptions, target: string): { seconds?: number; why?: string } {
  const { trace, why } = findUsableTrace(options, target);
  if (!trace) return { why };
  if (trace.totalSteps === 0) return { why: 'the trace has no step spans' };
  const nodeName = options.run.targets[target]?.node;
  const speed = options.run.nodes.find((node) => node.name === nodeName)?.speed ?? 1;
  return { seconds: trace.buildSeconds * speed };
}

function measureSetup(options: ToReplayCostsOptions, target: string): number | undefined {
  const { trace } = findUsableTrace(options, target);
  const outcome = options.run.targets[target];
  if (!trace || outcome?.status !== 'ok') return undefined;
  return measureSetupSeconds(trace, outcome);
}

function measureBytes(options: ToReplayCostsOptions, target: string): { bytes?: number; why?: string } {
  const { trace, why } = findUsableTrace(options, target);
  if (!trace) return { why };
  if (trace.uploads.length === 0) return { why: 'the trace has no upload spans' };
  const unsized = trace.uploads.filter((upload) => upload.bytes === null).length;
  if (unsized > 0) return { why: `${unsized} of ${trace.uploads.length} uploads carry no size` };
  return { bytes: trace.uploads.reduce((sum, upload) => sum + (upload.bytes ?? 0), 0) };
}

export function toReplayCosts(options: ToReplayCostsOptions): {
  costs: Map<string, ReplayCost>;
  notes: string[];
} {
  const costs = new Map<string, ReplayCost>();
  const notes: string[] = [];
  const missing: string[] = [];
  for (const target of options.targets) {
    const build = measureBuild(options, target);
    const bytes = measureBytes(options, target);
    const setup = measureSetup(options, target);
    const fallback = options.targetCosts?.get(target);
    const buildSeconds = build.seconds ?? fallback?.buildSeconds;
    const cacheBytes = bytes.bytes ?? fallback?.cacheBytes;
    if (build.seconds === undefined)
      notes.push(`${target}: ${build.why}; build seconds from the target costs`);
    if (bytes.bytes === undefined) notes.push(`${target}: ${bytes.why}; bytes from the target costs`);
    if (buildSeconds === undefined)
      missing.push(
        `${target}: no measured build seconds (${build.why}) and no \`build ${target}\` line in the target costs`,
      );
    if (cacheBytes === undefined)
      missing.push(
        `${target}: no measured bytes (${bytes.why}) and no \`cache ${target}\` line in the target costs`,
      );
    if (buildSeconds === undefined || cacheBytes === undefined) continue;
    const setupFrom =
      setup !== undefined ? 'trace' : fallback?.setupSeconds !== undefined ? 'target-costs' : 'none';
    costs.set(target, {
      buildSeconds,
      cacheBytes,
      setupSeconds: setup ?? fallback?.setupSeconds ?? 0,
      buildFrom: build.seconds === undefined ? 'target-costs' : 'trace',
      bytesFrom: bytes.bytes === undefined ? 'target-costs' : 'trace',
      setupFrom,
    });
  }
  if (missing.length > 0)
    throw new UsageError(`cannot replay run ${options.run.stamp}: ${missing.join('; ')}`, {
      hint: 'add the figures to the target costs (--costs FILE), or replay a run where those targets finished',
    });
  return { costs, notes };
}
