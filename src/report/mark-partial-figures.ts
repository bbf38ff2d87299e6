import { RUN_DIR_FILES } from '../artifacts/index.js';
import type { NodeSummary, StreamSummary, Summary, TargetSummary } from '../artifacts/index.js';

import type { SampleShortfall } from './find-sample-shortfall.js';

// Which figures a damaged input file leaves partial, as data.json says it: every figure keeps the names of the files
// whose loud warnings touch it (`partial: ['zot.jsonl']`), so report.md, the page and `diff` mark the same figures.
// A file is damaged when its stream checks warned (drift, empty, shortfall, cut, rejected, unreadable), and a
// finished target's trace when it is missing. Pure.

export interface PartialFiguresOptions {
  streams: Readonly<Record<string, StreamSummary>>;
  targets: readonly TargetSummary[];
  nodes: readonly NodeSummary[];
  sampleShortfall: SampleShortfall | undefined;
}

export interface PartialFigures {
  targets: TargetSummary[];
  nodes: NodeSummary[];
  sccache: string[];
  registry: string[];
  /** The makespan and the critical path: any target's trace. */
  run: string[];
}

const traceFileOf = (target: string) => `trace-${target}.json`;

/** A finished target whose figures are unknown has no readable trace: its file is missing or damaged. */
function isUntraced(t: TargetSummary): boolean {
  return (t.status === 'ok' || t.status === 'failed') && t.totalSeconds === null;
}

export function markPartialFigures({
  streams,
  targets,
  nodes,
  sampleShortfall,
}: PartialFiguresOptions): PartialFigures {
  const damaged = new Set(
    Object.entries(streams).flatMap(([name, stream]) => (stream.warnings.length > 0 ? [name] : [])),
  );
  for (const t of targets) if (isUntraced(t)) damaged.add(traceFileOf(t.target));
  const shortNodes = new Set(sampleShortfall?.nodes ?? []);
  // A shortfall names one node; a damaged samples.jsonl (cut, rejected lines, unreadable) touches every node.
  const samplesWhole = damaged.has(RUN_DIR_FILES.samples);
  const markedTargets = targets.map((t) => ({
    ...t,
    partial: damaged.has(traceFileOf(t.target)) ? [traceFileOf(t.target)] : [],
  }));
  const partialOfTarget = new Map(markedTargets.map((t) => [t.target, t.partial]));
  const markedNodes = nodes.map((n) => ({
    ...n,
    partial: [
      ...(samplesWhole || shortNodes.has(n.node) ? [RUN_DIR_FILES.samples] : []),
      ...n.targets.flatMap((target) => partialOfTarget.get(target) ?? []),
    ],
  }));
  const only = (file: string) => (damaged.has(file) ? [file] : []);
  return {
    targets: markedTargets,
    nodes: markedNodes,
    sccache: only(RUN_DIR_FILES.sccache),
    registry: only(RUN_DIR_FILES.registry),
    run: markedTargets.flatMap((t) => t.partial),
  };
}

/** Every file that leaves some figure of the summary partial, sorted. */
export function listPartialFiles(summary: Summary): string[] {
  return [
    ...new Set([
      ...summary.partial,
      ...summary.sccache.partial,
      ...summary.registry.partial,
      ...summary.nodes.flatMap((n) => n.partial),
      ...summary.targets.flatMap((t) => t.partial),
    ]),
  ].sort();
}
