import type { TraceSpan } from './trace-span.js';

// Parent → children index over one record's spans, and subtree walks (iterative: traces can be deep).

export interface SpanTree {
  byId: Map<string, TraceSpan>;
  children: Map<string, TraceSpan[]>;
}

export function buildSpanTree(spans: readonly TraceSpan[]): SpanTree {
  const byId = new Map<string, TraceSpan>();
  const children = new Map<string, TraceSpan[]>();
  for (const span of spans) byId.set(span.spanId, span);
  for (const span of spans) {
    if (span.parentId === undefined) continue;
    const list = children.get(span.parentId);
    if (list === undefined) children.set(span.parentId, [span]);
    else list.push(span);
  }
  return { byId, children };
}

/** The span and all its descendants. A cycle (corrupt ids) is cut, never looped. */
export function collectSubtree(tree: SpanTree, root: TraceSpan): TraceSpan[] {
  const seen = new Set<string>([root.spanId]);
  const out: TraceSpan[] = [root];
  for (let i = 0; i < out.length; i += 1) {
    for (const child of tree.children.get(out[i]?.spanId ?? '') ?? []) {
      if (seen.has(child.spanId)) continue;
      seen.add(child.spanId);
      out.push(child);
    }
  }
  return out;
}

/** Ancestors from the parent upwards, stopping at a missing parent or a cycle. */
export function collectAncestors(tree: SpanTree, span: TraceSpan): TraceSpan[] {
  const out: TraceSpan[] = [];
  const seen = new Set<string>([span.spanId]);
  let parentId = span.parentId;
  while (parentId !== undefined && !seen.has(parentId)) {
    const parent = tree.byId.get(parentId);
    if (parent === undefined) break;
    seen.add(parentId);
    out.push(parent);
    parentId = parent.parentId;
  }
  return out;
}
