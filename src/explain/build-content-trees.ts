import { toCacheDebugFileList, type CacheDebugDb, type CacheDebugRecord } from '../collect/index.js';

// The content trees in a builder's cache-key debug database (cache-debug-<node>.json, parsed by collect's
// parseCacheDebug; docs/cache-debug.md): what each COPY/ADD from a context copied, as BuildKit checksummed it. Pure.
//
// A COPY source's content checksum is a `string` record `sha256:<checksum>@-1` whose child is a `digest-list` of the
// selected content, each entry a `file-list` (a directory: `\0<name>sha256:<record>` pairs, the first the directory
// itself; a sub-directory again a file-list) or a `file` (the tarsum header fields; the contents are hashed, not
// kept). Rendered, one such root is the file tree one COPY copied: path → the digest of its header and contents.
// The database keeps every build's records (a pruned builder keeps them too), so a run's new content is the roots
// its dump has that the compared run's dump of the same builder had not (docs/explain.md, "the join").

/** One COPY/ADD source as the builder checksummed it: path → digest of the file's header and contents. */
export interface ContentTree {
  /** The `sha256:…@-1` record's digest. */
  root: string;
  files: Map<string, string>;
}

const CONTENT_KEY = /^sha256:[0-9a-f]{64}@-1$/;
/** Depth bound: a hostile dump cannot loop the walk (a file-list naming itself). */
const MAX_DEPTH = 64;

function walk(
  records: CacheDebugDb['records'],
  record: CacheDebugRecord | undefined,
  prefix: string,
  out: Map<string, string>,
  depth: number,
): void {
  if (!record || depth > MAX_DEPTH) return;
  if (record.type === 'file') {
    out.set(prefix === '' ? '.' : prefix.replace(/\/$/, ''), record.digest);
    return;
  }
  for (const entry of toCacheDebugFileList(record) ?? []) {
    const name = entry.path.replace(/^\/+/, '');
    if (name === '') continue; // the directory itself
    const child = records.get(entry.digest);
    if (child?.type === 'file-list') walk(records, child, `${prefix}${name}/`, out, depth + 1);
    else out.set(`${prefix}${name}`, entry.digest);
  }
}

export function buildContentTrees(db: CacheDebugDb): ContentTree[] {
  const trees: ContentTree[] = [];
  for (const record of db.records.values()) {
    if (record.type !== 'string' || !CONTENT_KEY.test(record.text)) continue;
    const list = record.children.map((d) => db.records.get(d)).find((r) => r?.type === 'digest-list');
    if (!list) continue;
    const files = new Map<string, string>();
    for (const frame of list.frames) walk(db.records, db.records.get(frame.toString('utf8')), '', files, 0);
    trees.push({ root: record.digest, files });
  }
  return trees;
}

export interface FileChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

export function diffTrees(before: ContentTree, after: ContentTree): FileChanges {
  const added: string[] = [];
  const changed: string[] = [];
  for (const [file, digest] of after.files) {
    const old = before.files.get(file);
    if (old === undefined) added.push(file);
    else if (old !== digest) changed.push(file);
  }
  const removed = [...before.files.keys()].filter((file) => !after.files.has(file));
  return { added: added.sort(), removed: removed.sort(), changed: changed.sort() };
}

/**
 * The content that is new in `current` (roots the compared dump lacks), each paired with the old tree it replaced:
 * the compared dump's tree sharing the most paths with it (at least one). A new root with no such tree is left out.
 */
export function pairNewContent(
  previous: readonly ContentTree[],
  current: readonly ContentTree[],
): { before: ContentTree; after: ContentTree }[] {
  const known = new Set(previous.map((t) => t.root));
  const pairs: { before: ContentTree; after: ContentTree }[] = [];
  for (const after of current) {
    if (known.has(after.root)) continue;
    let best: { tree: ContentTree; shared: number } | undefined;
    for (const before of previous) {
      let shared = 0;
      for (const file of after.files.keys()) if (before.files.has(file)) shared += 1;
      if (shared > 0 && (!best || shared > best.shared)) best = { tree: before, shared };
    }
    if (best) pairs.push({ before: best.tree, after });
  }
  return pairs;
}
