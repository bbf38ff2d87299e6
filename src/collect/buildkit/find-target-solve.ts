import { isStepSpan, parseStepStage } from './build-trace-steps.js';
import { collectAncestors, collectSubtree, type SpanTree } from './span-tree.js';
import type { TraceSpan } from './trace-span.js';

// Which spans of a record belong to one bake target. Every target is its own BuildKit solve: its steps hang under
// the daemon's `moby.buildkit.v1.Control/Solve` server span, and the frontend's own steps (`[internal] load build
// definition`, `load .dockerignore`; for a `target:` context also the linked target's steps) under the
// `moby.buildkit.v1.frontend.LLBBridge/Solve` and `…/Evaluate` spans buildx opens beside that Solve, under the
// same parent (buildx's `build` span; the `bake` root in older layouts). Sibling targets of one bake share the
// trace id, so their solves leak into each other's records. Rules (docs/collectors-metrics-and-traces.md §2.3):
//   1. a solve = a Control/Solve (server) span, plus the frontend spans under its client span's parent when no
//      other Control/Solve shares that parent; candidates = solves with at least one step span;
//   2. one candidate → it is the target's;
//   3. several → the one under a buildx span named after the target (buildx names one span per target in a
//      multi-target bake), else the ones whose steps include the Dockerfile stage `stage ?? target`; among
//      several stage matches, the one whose last-ending step is of that stage;
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
  /** The client span's parent: buildx's `build` span, or the bake root in older layouts. */
  scope: TraceSpan | undefined;
  subtree: TraceSpan[];
  steps: TraceSpan[];
}

const solveName = 'moby.buildkit.v1.Control/Solve';
const frontendNames: ReadonlySet<string> = new Set([
  'moby.buildkit.v1.frontend.LLBBridge/Solve',
  'moby.buildkit.v1.frontend.LLBBridge/Evaluate',
]);

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
  const solves = findServerSpans(spans, (name) => name === solveName);
  const frontends = findServerSpans(spans, (name) => frontendNames.has(name));
  const solvesByScope = new Map<string | undefined, TraceSpan[]>();
  for (const root of solves) {
    const scopeId = toScope(tree, root)?.spanId;
    solvesByScope.set(scopeId, [...(solvesByScope.get(scopeId) ?? []), root]);
  }
  const candidates: Candidate[] = [];
  for (const root of solves) {
    if (collectAncestors(tree, root).some((ancestor) => solves.includes(ancestor))) continue;
    const scope = toScope(tree, root);
    const alone = scope !== undefined && solvesByScope.get(scope.spanId)?.length === 1;
    const own = alone ? frontends.filter((span) => toScope(tree, span)?.spanId === scope.spanId) : [];
    const subtree = [root, ...own].flatMap((span) => collectSubtree(tree, span));
    const steps = subtree.filter(isStepSpan);
    if (steps.length > 0) candidates.push({ root, scope, subtree, steps });
  }
  return candidates;
}

/** Server spans with the name (client ones when the record has no server span of that name). */
function findServerSpans(spans: readonly TraceSpan[], isNamed: (name: string) => boolean): TraceSpan[] {
  const named = spans.filter((span) => isNamed(span.name));
  const servers = named.filter((span) => span.kind === 'server');
  return servers.length > 0 ? servers : named;
}

/** The parent of the span's gRPC client span (or of the span itself when it has no client span above it). */
function toScope(tree: SpanTree, span: TraceSpan): TraceSpan | undefined {
  const parent = span.parentId === undefined ? undefined : tree.byId.get(span.parentId);
  const client = parent?.name === span.name && parent.kind !== 'server' ? parent : span;
  return client.parentId === undefined ? undefined : tree.byId.get(client.parentId);
}

function pickCandidates(
  candidates: Candidate[],
  tree: SpanTree,
  match: { target: string | undefined; stage: string | undefined },
): Candidate[] {
  const { target } = match;
  if (target === undefined) return [];
  const byName = candidates.filter((candidate) => isUnderTargetSpan(tree, candidate.scope, target));
  if (byName.length > 0) return byName;
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

/** buildx (seen in v0.23.0 and v0.36.1) opens a span named after each target of a multi-target bake. */
function isUnderTargetSpan(tree: SpanTree, scope: TraceSpan | undefined, target: string): boolean {
  if (scope === undefined) return false;
  return [scope, ...collectAncestors(tree, scope)].some((span) => span.name === target);
}

function lastEnding(steps: TraceSpan[]): TraceSpan {
  return steps.reduce((latest, step) => (step.endMs > latest.endMs ? step : latest));
}
