import { z } from 'zod';
import { ParseError } from '../../shared/errors.js';
import { formatZodIssues } from '../../shared/format-zod-issues.js';

// The cache-key debug database, as buildkitd (≥ v0.24.0, started with --save-cache-debug --debugaddr) serves it at
// `GET /debug/cache/all` with `Accept: application/json`: the run dir's cache-debug-<node>.json (docs/cache-debug.md).
// Held to a real capture (test/fixtures/buildkit-explain/capture-cache-all.v0.32.2.json). The wire format is
// BuildKit's util/cachedigest: a JSON array of records `{digest, type, data: [{type, data}], subRecords}`, where
// `data` is the list of frames BuildKit hashed (frame type 2 = bytes it kept, base64; 3 = bytes it hashed without
// keeping: a little-endian uint32 count, e.g. a file's contents), and `subRecords` repeats, nested, each record whose
// digest the plaintext names. Every record is also listed at the top, so the nesting is dropped here: a record
// keeps only its children's digests.

/** Record types BuildKit v0.32.2 writes (util/cachedigest/digest.go); a newer one is kept as it is. */
type CacheDebugRecordType = 'json' | 'string' | 'string-list' | 'digest-list' | 'file-list' | 'file';

const FRAME_DATA = 2;
const FRAME_SKIP = 3;

const Base64 = z.base64();

const FrameSchema = z.object({
  type: z.number().int().min(1),
  data: Base64.optional(),
});

interface RawRecord {
  digest: string;
  type: string;
  data?: z.infer<typeof FrameSchema>[] | undefined;
  subRecords?: RawRecord[] | undefined;
}

const RawRecordSchema: z.ZodType<RawRecord> = z.lazy(() =>
  z.object({
    digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'expected sha256:<64 hex>'),
    type: z.string().min(1),
    data: z.array(FrameSchema).optional(),
    subRecords: z.array(RawRecordSchema).optional(),
  }),
);

const CacheAllSchema = z.array(RawRecordSchema).nullable();

/** One record: the plaintext a cache key (or a digest inside one) was computed from. */
export interface CacheDebugRecord {
  digest: string;
  type: CacheDebugRecordType | (string & {});
  /** Each kept frame's bytes, in order (a `file` record: one header field per frame, e.g. `mode420`). */
  frames: Buffer[];
  /** The kept bytes joined: the plaintext (JSON for `json`, `\0`-separated for the lists). */
  text: string;
  /** Bytes BuildKit hashed without keeping them (a file's contents). */
  skippedBytes: number;
  /** Digests of the records this one's plaintext names (BuildKit's subRecords), in its order. */
  children: string[];
}

export interface CacheDebugDb {
  /** Every record by digest. */
  records: Map<string, CacheDebugRecord>;
}

function toRecord(raw: RawRecord): CacheDebugRecord {
  const frames: Buffer[] = [];
  let skippedBytes = 0;
  for (const frame of raw.data ?? []) {
    const bytes = Buffer.from(frame.data ?? '', 'base64');
    if (frame.type === FRAME_DATA) frames.push(bytes);
    else if (frame.type === FRAME_SKIP && bytes.length >= 4) skippedBytes += bytes.readUInt32LE(0);
  }
  return {
    digest: raw.digest,
    type: raw.type,
    frames,
    text: Buffer.concat(frames).toString('utf8'),
    skippedBytes,
    children: (raw.subRecords ?? []).map((sub) => sub.digest),
  };
}

/**
 * Pure: the body of `/debug/cache/all` (JSON) → every record by digest. `source` names the file in errors; a body
 * that is not JSON or not the records' shape is a ParseError naming the key and the bad value.
 */
export function parseCacheDebug(text: string, source: string): CacheDebugDb {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ParseError(source, undefined, `not JSON: ${(error as Error).message}`, {
      hint: 'cache-debug-<node>.json holds the body of buildkitd’s GET /debug/cache/all (Accept: application/json); fetch it again or remove the file',
    });
  }
  const parsed = CacheAllSchema.safeParse(json);
  if (!parsed.success)
    throw new ParseError(
      source,
      undefined,
      `not BuildKit's /debug/cache/all records: ${formatZodIssues(parsed.error.issues, { limit: 1, root: '(top)' })}`,
      {
        hint: 'the file must be the JSON array buildkitd ≥ v0.24.0 serves at /debug/cache/all with Accept: application/json',
      },
    );
  const records = new Map<string, CacheDebugRecord>();
  for (const raw of parsed.data ?? []) records.set(raw.digest, toRecord(raw));
  return { records };
}

/** Pure: a `file-list` record's entries (a path under the copied source → its record's digest), in order. */
export function toCacheDebugFileList(
  record: CacheDebugRecord,
): { path: string; digest: string }[] | undefined {
  if (record.type !== 'file-list') return undefined;
  const entries: { path: string; digest: string }[] = [];
  for (const pair of record.text.split('\0')) {
    const at = pair.lastIndexOf('sha256:');
    if (at >= 0) entries.push({ path: pair.slice(0, at), digest: pair.slice(at) });
  }
  return entries;
}
