import { isStepSpan, parseStepStage } from './build-trace-steps.js';
import { collectAncestors, collectSubtree, type SpanTree } from './span-tree.js';
import type { TraceSpan } from './trace-span.js';

// Which spans of a record belong to one bake target. Every target is its own BuildKit solve, whose steps hang
// under the daemon's `moby.buildkit.v1.Control/Solve` server span; sibling targets of one bake share the trace
// id, so their solves can leak into each other's records. Rules (docs/collectors-metrics-and-traces.md):
//   1. candidates = Solve server spans with at least one step span in their subtree;
//   2. one candidate → it is the target's;
//   3. several → the one whose span or ancestors carry `target`/`bake.target`/`buildx.target` = the target,
//      else the ones whose steps include the Dockerfile stage `stage ?? target`; among several stage matches,
//      the one whose last-ending step is of that stage;
//   4. nothing matches → every candidate is used, with a warning naming them.

export interface TargetSolve {
  /** The chosen Solve server spans (one, unless attribution failed). */
  roots: TraceSpan[];
  /** Span ids inside the chosen solves' subtrees. */
  ownIds: Set<string>;
  /** Span ids inside other candidates' subtrees (sibling targets). */
  siblingIds: Set<string>;
  warnings: string[];
}

interface Candidate {
  root: TraceSpan;
  subtree: TraceSpan[];
  steps: TraceSpan[];
}

const solveName = 'moby.buildkit.v1.Control/Solve';
const targetKeys = ['target', 'bake.target', 'buildx.target'] as const;

export function findTargetSolve(
  spans: readonly TraceSpan[],
  tree: SpanTree,
  match: { target: string | undefined; stage: string | undefined },
): TargetSolve {
  const candidates = findCandidates(spans, tree);
  const chosen = candidates.length <= 1 ? candidates : pickCandidates(candidates, tree, match);
  const warnings: string[] = [];
  const roots = chosen.length === 0 ? candidates : chosen;
  if (candidates.length > 1 && chosen.length === 0) {
    warnings.push(
      `${candidates.length} solves in this record and none matched target ${JSON.stringify(match.target ?? '')}` +
        `${match.stage ? ` (stage ${JSON.stringify(match.stage)})` : ''}; steps and uploads of all of them are counted`,
    );
  }
  const ownIds = new Set<string>();
  const siblingIds = new Set<string>();
  for (const candidate of candidates) {
    const into = roots.includes(candidate) ? ownIds : siblingIds;
    for (const span of candidate.subtree) into.add(span.spanId);
  }
  return { roots: roots.map((candidate) => candidate.root), ownIds, siblingIds, warnings };
}

function findCandidates(spans: readonly TraceSpan[], tree: SpanTree): Candidate[] {
  const servers = spans.filter((span) => span.name === solveName && span.kind === 'server');
  const solves = servers.length > 0 ? servers : spans.filter((span) => span.name === solveName);
  const candidates: Candidate[] = [];
  for (const root of solves) {
    const subtree = collectSubtree(tree, root);
    const steps = subtree.filter(isStepSpan);
    const nested = collectAncestors(tree, root).some((ancestor) => solves.includes(ancestor));
    if (steps.length > 0 && !nested) candidates.push({ root, subtree, steps });
  }
  return candidates;
}

function pickCandidates(
  candidates: Candidate[],
  tree: SpanTree,
  match: { target: string | undefined; stage: string | undefined },
): Candidate[] {
  const { target } = match;
  if (target === undefined) return [];
  const byAttribute = candidates.filter((candidate) => carriesTarget(tree, candidate.root, target));
  if (byAttribute.length > 0) return byAttribute;
  const stage = match.stage ?? target;
  const byStage = candidates.filter((candidate) =>
    candidate.steps.some((step) => parseStepStage(step.name) === stage),
  );
  if (byStage.length <= 1) return byStage;
  const byFinalStage = byStage.filter(
    (candidate) => parseStepStage(lastEnding(candidate.steps).name) === stage,
  );
  return byFinalStage.length > 0 ? byFinalStage : byStage;
}

function carriesTarget(tree: SpanTree, root: TraceSpan, target: string): boolean {
  return [root, ...collectAncestors(tree, root)].some((span) =>
    targetKeys.some((key) => span.attributes.get(key) === target),
  );
}

function lastEnding(steps: TraceSpan[]): TraceSpan {
  return steps.reduce((latest, step) => (step.endMs > latest.endMs ? step : latest));
}
