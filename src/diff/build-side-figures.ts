import type { DataFile, Plan, RunFile } from '../artifacts/index.js';
import { toScheduleFromRun } from '../plan/index.js';

// One run (run.json + plan.json + data.json) → the figures the makespan explanation replays: per target its node,
// its build seconds (the run.json wall time less its modelled upload), its upload bytes and its start lag; per node
// its upload throughput and its start delay; the realised queues and what each target waited for. Pure.
//
// The lags are residuals, so replaying a run with its own figures reproduces its run.json times: a target starts at
// max(finish of the previous target on its node, or the node's start delay for the first; finish of its waitFor
// deps) + its start lag, and takes build + bytes / throughput.

interface TargetFigures {
  node: string;
  startSeconds: number;
  finishSeconds: number;
  /** Wall time on the node (run.json) less bytes / the node's throughput: steps, setup and export. */
  buildSeconds: number;
  uploadBytes: number;
  /** Start − max(finish of its waitFor deps, finish of the previous target on its node), at least 0. */
  startLagSeconds: number;
}

export interface NodeFigures {
  speed: number | null;
  linkMbps: number | null;
  uploadedBytes: number;
  uploadSeconds: number;
  /** Bytes the node uploaded ÷ its upload seconds; link_mbps × 10^6 when it uploaded nothing. */
  throughputBytesPerSecond: number;
  throughputSource: 'measured' | 'link' | 'none';
  /** Measured start → the node's first target start, when that target waited for nothing; else 0. */
  startDelaySeconds: number;
}

export interface SideFigures {
  targets: Record<string, TargetFigures>;
  nodes: Record<string, NodeFigures>;
  /** Per node, its settled targets in the order they started. */
  queues: Record<string, string[]>;
  waitFor: Record<string, string[]>;
  notes: string[];
}

export interface BuildSideFiguresOptions {
  runFile: RunFile;
  plan: Plan;
  model: DataFile;
}

function sumUploads(model: DataFile): Map<string, { bytes: number; seconds: number }> {
  const byNode = new Map<string, { bytes: number; seconds: number }>();
  for (const t of model.summary.targets) {
    const entry = byNode.get(t.node) ?? { bytes: 0, seconds: 0 };
    entry.bytes += t.uploadBytes ?? 0;
    entry.seconds += t.uploadSeconds ?? 0;
    byNode.set(t.node, entry);
  }
  return byNode;
}

function buildNodeFigures(
  runFile: RunFile,
  model: DataFile,
  names: readonly string[],
): Record<string, NodeFigures> {
  const uploads = sumUploads(model);
  const nodes: Record<string, NodeFigures> = {};
  for (const name of names) {
    const configured = runFile.nodes.find((node) => node.name === name);
    const { bytes, seconds } = uploads.get(name) ?? { bytes: 0, seconds: 0 };
    const link = configured?.linkMbps ?? null;
    const measured = bytes > 0 && seconds > 0;
    nodes[name] = {
      speed: configured?.speed ?? null,
      linkMbps: link,
      uploadedBytes: bytes,
      uploadSeconds: seconds,
      throughputBytesPerSecond: measured
        ? bytes / seconds
        : link !== null && link > 0
          ? link * 1e6
          : Infinity,
      throughputSource: measured ? 'measured' : link !== null && link > 0 ? 'link' : 'none',
      startDelaySeconds: 0,
    };
  }
  return nodes;
}

/** The latest finish among a target's waitFor deps that settled in the run; 0 when none. */
function findDepsFinish(
  deps: readonly string[],
  finish: (name: string) => number | undefined,
): { at: number; any: boolean } {
  let at = 0;
  let any = false;
  for (const dep of deps) {
    const f = finish(dep);
    if (f === undefined) continue;
    [at, any] = [Math.max(at, f), true];
  }
  return { at, any };
}

export function buildSideFigures({ runFile, plan, model }: BuildSideFiguresOptions): SideFigures {
  const schedule = toScheduleFromRun({ run: runFile, plan });
  const notes: string[] = [];
  const nodes = buildNodeFigures(runFile, model, schedule.nodeNames);
  const summaries = new Map(model.summary.targets.map((t) => [t.target, t]));
  const finish = (name: string) => schedule.targets[name]?.finishSeconds;
  const targets: Record<string, TargetFigures> = {};
  const waitFor: Record<string, string[]> = {};
  for (const [node, queue] of Object.entries(schedule.queues)) {
    queue.forEach((name, k) => {
      const t = schedule.targets[name]!;
      const deps = findDepsFinish(t.deps, finish);
      const figures = nodes[node]!;
      if (k === 0 && !deps.any) figures.startDelaySeconds = t.startSeconds;
      const ready = Math.max(k === 0 ? figures.startDelaySeconds : finish(queue[k - 1]!)!, deps.at);
      const summary = summaries.get(name);
      if (summary?.uploadBytes === null || summary?.uploadBytes === undefined)
        notes.push(`${name}: no upload figures (trace not read), so its whole wall time counts as build`);
      const bytes = summary?.uploadBytes ?? 0;
      const wall = t.finishSeconds - t.startSeconds;
      targets[name] = {
        node,
        startSeconds: t.startSeconds,
        finishSeconds: t.finishSeconds,
        buildSeconds: Math.max(0, wall - (bytes > 0 ? bytes / figures.throughputBytesPerSecond : 0)),
        uploadBytes: bytes,
        startLagSeconds: Math.max(0, t.startSeconds - ready),
      };
      waitFor[name] = [...t.deps];
    });
  }
  return { targets, nodes, queues: schedule.queues, waitFor, notes };
}
