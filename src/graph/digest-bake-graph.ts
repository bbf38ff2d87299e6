import { createHash } from 'node:crypto';
import { listTargetLinks, type BakePrint } from './bake-print-schema.js';

// A digest of the bake graph a run planned with, for run.json's `bake`: `costs` compares it with the current bake
// print and refuses a run of another bake definition (docs/planning.md). Pure.
// - A target's digest is the SHA-256 of its whole bake-print entry (context, dockerfile, args, contexts, tags, cache,
//   outputs, and any key bake adds) with its keys sorted, together with the digests of the targets its `target:`
//   contexts name: a change to a dependency's definition changes every target built on it.
// - The graph's digest covers the planned targets' digests, by name.
// Key order never matters (bake prints its maps sorted, but a saved print may have been rewritten).

export interface BakeGraphDigest {
  /** SHA-256 over every planned target's digest. */
  sha256: string;
  /** Per planned target. */
  targets: Record<string, string>;
}

/** JSON with every object's keys sorted, so equal definitions give equal text. */
function toCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(toCanonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${toCanonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Each target's digest (its entry and its dependencies' digests), for every target of `targets`. */
export function digestBakeGraph(print: BakePrint, targets: readonly string[]): BakeGraphDigest {
  const memo = new Map<string, string>();
  const digestOf = (name: string, trail: ReadonlySet<string>): string => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const entry = print.target[name];
    // A cycle (the graph check refuses one before a run) or a missing target still digests, as its name alone.
    if (entry === undefined || trail.has(name)) return sha256(toCanonicalJson({ missing: name }));
    const inner = new Set([...trail, name]);
    const deps = Object.fromEntries(
      listTargetLinks(entry).map((dep) => [dep, digestOf(dep, inner)] as const),
    );
    const digest = sha256(toCanonicalJson({ target: entry, deps }));
    memo.set(name, digest);
    return digest;
  };
  const digests = Object.fromEntries([...targets].sort().map((name) => [name, digestOf(name, new Set())]));
  return { sha256: sha256(toCanonicalJson(digests)), targets: digests };
}

/**
 * What differs between the bake graph a run recorded and the current one, one phrase per target: a target whose
 * definition (or a dependency's) changed, or that the current print lacks. [] when every recorded target is the same.
 */
export function findBakeDifferences(recorded: BakeGraphDigest, current: BakePrint): string[] {
  const names = Object.keys(recorded.targets).sort();
  const now = digestBakeGraph(
    current,
    names.filter((name) => current.target[name] !== undefined),
  ).targets;
  const gone = names.filter((name) => now[name] === undefined);
  const changed = names.filter((name) => now[name] !== undefined && now[name] !== recorded.targets[name]);
  return [
    ...(changed.length > 0
      ? [`defined differently now (its bake-print entry or a dependency's): ${changed.join(', ')}`]
      : []),
    ...(gone.length > 0 ? [`not in the current bake print: ${gone.join(', ')}`] : []),
  ];
}
