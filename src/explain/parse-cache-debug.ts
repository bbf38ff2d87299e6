import { z } from 'zod';

// The body of buildkitd's `GET /debug/cache/all` (Accept: application/json; `buildkitd --save-cache-debug
// --debugaddr`, BuildKit v0.32.2 cmd/buildkitd/debug.go), saved as cache-debug-<node>.json. Pure.
//
// It is every plaintext a cache key was computed from, each record `{digest, type, data: [{type, data: base64}],
// subRecords?}`. The records this explainer reads are the content checksums of COPY/ADD sources: a `string`
// record `sha256:<checksum>@-1` whose sub-record is a `digest-list` of the selected content, each entry a
// `file-list` (a directory: NUL-prefixed name and digest pairs, the first pair the directory itself, a sub-directory again a
// file-list) or a `file` (the tar header fields: name, mode, uid, gid, size, typeflag, linkname, …). Rendered, one
// such root is the file tree one COPY copied: path → the digest of its header and content. The database keeps every
// build's records (pruning the builder does not remove them), so a run's new content is the roots its dump has that
// the compared run's dump of the same builder had not (docs/explain.md, "the join").

const ChunkSchema = z.looseObject({ type: z.number().optional(), data: z.string() });
interface RawRecord {
  digest: string;
  type: string;
  data: { data: string }[];
  subRecords?: RawRecord[] | null | undefined;
}
const RecordSchema: z.ZodType<RawRecord> = z.lazy(() =>
  z.looseObject({
    digest: z.string(),
    type: z.string(),
    data: z.array(ChunkSchema),
    subRecords: z.array(RecordSchema).nullish(),
  }),
);
export const CacheDebugSchema = z.array(RecordSchema);

/** One COPY/ADD source as the builder checksummed it: path → digest of the file's header and content. */
export interface ContentTree {
  /** The `sha256:…@-1` record's digest. */
  root: string;
  files: Map<string, string>;
}

const CONTENT_KEY = /^sha256:[0-9a-f]{64}@-1$/;

function decode(chunk: { data: string }): string {
  return Buffer.from(chunk.data, 'base64').toString('utf8');
}

/** The content trees of one dump (parsed JSON); throws the zod error on a wrong shape. */
export function parseCacheDebug(raw: unknown): ContentTree[] {
  const records = CacheDebugSchema.parse(raw);
  const byDigest = new Map<string, RawRecord>();
  const index = (record: RawRecord) => {
    if (!byDigest.has(record.digest) || (record.subRecords?.length ?? 0) > 0)
      byDigest.set(record.digest, record);
    for (const sub of record.subRecords ?? []) index(sub);
  };
  for (const record of records) index(record);
  const trees: ContentTree[] = [];
  for (const record of records) {
    if (record.type !== 'string' || record.data.length !== 1 || !CONTENT_KEY.test(decode(record.data[0]!)))
      continue;
    const list = (record.subRecords ?? []).find((sub) => sub.type === 'digest-list');
    if (!list) continue;
    const files = new Map<string, string>();
    for (const entry of list.data) walk(byDigest, decode(entry), '', files, 0);
    trees.push({ root: record.digest, files });
  }
  return trees;
}

/** Depth bound: a hostile dump cannot loop the walk (a file-list naming itself). */
const MAX_DEPTH = 64;

function walk(
  byDigest: Map<string, RawRecord>,
  digest: string,
  prefix: string,
  out: Map<string, string>,
  depth: number,
) {
  const record = byDigest.get(digest);
  if (!record || depth > MAX_DEPTH) return;
  if (record.type === 'file') {
    out.set(prefix === '' ? '.' : prefix.replace(/\/$/, ''), digest);
    return;
  }
  if (record.type !== 'file-list') return;
  const chunks = record.data.map(decode);
  for (let i = 0; i + 1 < chunks.length; i += 2) {
    // A name is NUL-prefixed (`\0main.c`); the first pair (`\0`) is the directory itself.
    const [name, child] = [chunks[i]!.replace(/^\0+/, ''), chunks[i + 1]!];
    if (name === '') continue;
    const sub = byDigest.get(child);
    if (sub?.type === 'file-list') walk(byDigest, child, `${prefix}${name}/`, out, depth + 1);
    else out.set(`${prefix}${name}`, child);
  }
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
