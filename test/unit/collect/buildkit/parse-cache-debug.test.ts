// parseCacheDebug held to a real /debug/cache/all body of buildkitd v0.32.2 after two bakes that differ in one ARG
// (FOO=1 → FOO=2) and one COPY'd file (src/file.txt "one" → "two"): test/fixtures/buildkit-explain/capture-make.sh.
// The expected values come from outside the parser: the same bakes' provenance (mode=max) LLB, and the files'
// own bytes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  parseCacheDebug,
  toCacheDebugFileList,
  type CacheDebugRecord,
} from '../../../../src/collect/buildkit/parse-cache-debug.js';
import { ParseError } from '../../../../src/shared/errors.js';

const read = (name: string) =>
  readFileSync(new URL(`../../../fixtures/buildkit-explain/${name}`, import.meta.url), 'utf8');
const cacheAll = read('capture-cache-all.v0.32.2.json');

// Reading an exec step's plaintext and a file record's tarsum header out of the parsed records: test code (the
// product reads only file lists), so these tests hold the records' framing to what BuildKit hashed.
/** An exec step's plaintext: what BuildKit's cache key of a RUN holds (its LLB ExecOp meta and platform). */
interface CacheDebugExec {
  args: string[];
  env: string[];
  cwd: string | undefined;
  os: string | undefined;
  arch: string | undefined;
}

const ExecPlaintextSchema = z.object({
  Type: z.literal('buildkit.exec.v0'),
  Exec: z.object({
    meta: z
      .object({
        args: z.array(z.string()).optional(),
        env: z.array(z.string()).optional(),
        cwd: z.string().optional(),
      })
      .optional(),
  }),
  OS: z.string().optional(),
  Arch: z.string().optional(),
});

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Pure: the exec plaintext of a `json` record of Type `buildkit.exec.v0`; undefined for any other record. */
function toCacheDebugExec(record: CacheDebugRecord): CacheDebugExec | undefined {
  if (record.type !== 'json') return undefined;
  const parsed = ExecPlaintextSchema.safeParse(parseJsonText(record.text));
  if (!parsed.success) return undefined;
  const meta = parsed.data.Exec.meta;
  return {
    args: meta?.args ?? [],
    env: meta?.env ?? [],
    cwd: meta?.cwd,
    os: parsed.data.OS,
    arch: parsed.data.Arch,
  };
}

/** A file's header as BuildKit hashed it (tarsum v1 header fields; the contents are hashed, not kept). */
interface CacheDebugFile {
  /** Header field → value, e.g. mode → '420', size → '4', typeflag → '0', linkname → ''. */
  fields: Record<string, string>;
  contentBytes: number;
}

/** The tarsum v1 header fields in the order BuildKit writes them (cache/contenthash WriteV1TarsumHeaders). */
const tarsumFields = [
  'name',
  'mode',
  'uid',
  'gid',
  'size',
  'typeflag',
  'linkname',
  'uname',
  'gname',
  'devmajor',
  'devminor',
];

/** Pure: a `file` record's header fields; undefined for any other record. */
function toCacheDebugFile(record: CacheDebugRecord): CacheDebugFile | undefined {
  if (record.type !== 'file') return undefined;
  const fields: Record<string, string> = {};
  for (const frame of record.frames) {
    const text = frame.toString('utf8');
    const key = tarsumFields.find((field) => text.startsWith(field));
    if (key !== undefined && !(key in fields)) fields[key] = text.slice(key.length);
  }
  return { fields, contentBytes: record.skippedBytes };
}

interface LlbStep {
  id: string;
  op: { Op: { exec?: { meta: { args: string[]; env: string[]; cwd: string } } } };
}
/** The exec step's meta from a bake's provenance (buildConfig.llbDefinition), read without the product. */
function provenanceExec(metaFile: string) {
  const meta = JSON.parse(read(metaFile)) as {
    app: { 'buildx.build.provenance': { buildConfig: { llbDefinition: LlbStep[] } } };
  };
  const steps = meta.app['buildx.build.provenance'].buildConfig.llbDefinition;
  const execs = steps.flatMap((step) => (step.op.Op.exec ? [step.op.Op.exec.meta] : []));
  expect(execs).toHaveLength(1);
  return execs[0]!;
}

describe('parseCacheDebug on a real buildkitd v0.32.2 /debug/cache/all', () => {
  const db = parseCacheDebug(cacheAll, 'capture-cache-all.v0.32.2.json');

  it('keeps every top-level record by digest', () => {
    const top = JSON.parse(cacheAll) as { digest: string }[];
    expect(db.records.size).toBe(new Set(top.map((record) => record.digest)).size);
    expect(db.records.size).toBe(53);
  });

  it("holds both builds' exec records, equal to their provenance LLB's exec steps", () => {
    const execs = [...db.records.values()].flatMap((record) => toCacheDebugExec(record) ?? []);
    expect(execs).toHaveLength(2);
    for (const metaFile of ['capture-meta-1.v0.32.2.json', 'capture-meta-2.v0.32.2.json']) {
      const llb = provenanceExec(metaFile);
      expect(execs).toContainEqual({
        args: llb.args,
        env: llb.env,
        cwd: llb.cwd,
        os: 'linux',
        arch: 'amd64',
      });
    }
    expect(execs.map((exec) => exec.env.find((line) => line.startsWith('FOO=')))).toEqual(
      expect.arrayContaining(['FOO=1', 'FOO=2']),
    );
  });

  it("tells the COPY'd file's two versions apart: same header, two records, contents hashed not kept", () => {
    const lists = [...db.records.values()].flatMap((record) => {
      const entries = toCacheDebugFileList(record);
      return entries?.some((entry) => entry.path === 'file.txt') ? [entries] : [];
    });
    expect(lists).toHaveLength(2);
    const fileDigests = lists.map((entries) => entries.find((entry) => entry.path === 'file.txt')!.digest);
    expect(new Set(fileDigests).size).toBe(2);
    for (const digest of fileDigests) {
      const file = toCacheDebugFile(db.records.get(digest)!);
      // "one\n" and "two\n": 4 bytes each, mode 0644 (420), a regular file (typeflag 0).
      expect(file).toMatchObject({
        fields: { mode: '420', size: '4', typeflag: '0', uid: '0', linkname: '' },
        contentBytes: 4,
      });
    }
  });

  it('links a record to the records its plaintext names (children)', () => {
    const withChildren = [...db.records.values()].filter((record) => record.children.length > 0);
    expect(withChildren.length).toBeGreaterThan(0);
    for (const record of withChildren)
      for (const child of record.children) {
        expect(record.text).toContain(child);
        expect(db.records.has(child)).toBe(true);
      }
  });

  it('reads an empty database (`null`, as Go encodes an empty slice) as no records', () => {
    expect(parseCacheDebug('null\n', 'x.json').records.size).toBe(0);
  });
});

describe('parseCacheDebug refuses what is not the records', () => {
  const refuse = (text: string) => {
    try {
      parseCacheDebug(text, 'cache-debug-forge.json');
    } catch (error) {
      expect(error).toBeInstanceOf(ParseError);
      return (error as ParseError).message;
    }
    throw new Error('parsed');
  };

  it('names the file when the body is not JSON', () => {
    expect(refuse('<html>404 page not found')).toMatch(/^cache-debug-forge\.json: not JSON/);
  });

  it('names the key and what is wrong with it', () => {
    const records = JSON.parse(cacheAll) as { digest: string; data: { data: string }[] }[];
    records[3]!.digest = 'md5:abc';
    expect(refuse(JSON.stringify(records))).toMatch(/3\.digest: expected sha256:<64 hex>/);
    const bad = JSON.parse(cacheAll) as { data: { data: string }[] }[];
    bad[0]!.data[0]!.data = 'not base64!';
    expect(refuse(JSON.stringify(bad))).toMatch(/0\.data\.0\.data: /);
    expect(refuse('{"records": []}')).toMatch(/\(top\): /);
  });
});
