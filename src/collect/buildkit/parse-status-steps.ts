// Step counts from bake's `--progress=rawjson` status stream (status-<target>.jsonl): what BuildKit itself counts
// for `history inspect` NumTotalSteps/NumCachedSteps (distinct vertex digests; cached = any update said so). The
// trace cannot give these: vertices such as `load metadata for …`, `importing cache manifest …`, the export
// vertices and cached steps that BuildKit skipped have no step span (docs/collectors-metrics-and-traces.md §2.2).

export interface StatusStepCounts {
  totalSteps: number;
  cachedSteps: number;
}

/** Vertices buildx writes into its own progress, never sent to BuildKit (seen with buildx v0.23.0 and v0.36.1). */
const buildxOwnVertices: ReadonlySet<string> = new Set([
  '[internal] load local bake definitions',
  'resolving provenance for metadata file',
]);

interface RawVertex {
  digest?: unknown;
  name?: unknown;
  cached?: unknown;
}

/**
 * Pure: the step counts of one target's single-target bake stream; undefined when the stream holds no vertex, or
 * when buildx prefixed the names with `[<target>] ` (a multi-target bake: the linked target's vertices are merged
 * in and a vertex both solves used is listed once, so no record's counts can be read from it).
 */
export function parseStatusSteps(text: string, target: string): StatusStepCounts | undefined {
  const cached = new Map<string, boolean>();
  const prefix = `[${target}] `;
  let merged = false;
  for (const line of text.split('\n')) {
    for (const vertex of toVertices(line)) {
      if (typeof vertex.digest !== 'string' || typeof vertex.name !== 'string') continue;
      if (vertex.name.startsWith(prefix)) merged = true;
      if (buildxOwnVertices.has(vertex.name)) continue;
      cached.set(vertex.digest, (cached.get(vertex.digest) ?? false) || vertex.cached === true);
    }
  }
  if (merged || cached.size === 0) return undefined;
  return { totalSteps: cached.size, cachedSteps: [...cached.values()].filter(Boolean).length };
}

function toVertices(line: string): RawVertex[] {
  if (!line.startsWith('{') || !line.includes('"vertexes"')) return [];
  try {
    const status = JSON.parse(line) as { vertexes?: unknown };
    return Array.isArray(status.vertexes) ? (status.vertexes as RawVertex[]) : [];
  } catch {
    return [];
  }
}
