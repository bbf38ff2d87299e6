// The .dockerbuild reader and the run it becomes, held to the real files buildx v0.36.1 exported on the fleet in a
// box (test/fixtures/dockerbuild/README.md). The expectations are worked out here without the product's reader:
// GNU tar unpacks the archive, JSON.parse follows index.json to each record, and buildx's own output for the same
// builds (its `--progress rawjson` stream and its `history trace` Jaeger JSON, saved by the fixture's maker) is the
// truth the status log and the trace are compared with.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCiRun } from '../../../src/import/build-ci-run.js';
import { parseDockerbuild } from '../../../src/import/parse-dockerbuild.js';
import { parseTarMembers } from '../../../src/import/parse-tar-members.js';
import { parseStatusLog } from '../../../src/import/parse-status-log.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/dockerbuild');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'dockerbuild-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

/** The records of a fixture as GNU tar and JSON.parse see them: ref, bake target, times, counts, blobs. */
function readByHand(file: string) {
  const dir = mkdtempSync(path.join(scratch, 'x-'));
  execFileSync('tar', ['-xzf', path.join(fixtures, file), '-C', dir]);
  const blob = (d: Descriptor) => readFileSync(path.join(dir, 'blobs/sha256', d.digest.slice(7)));
  const json = <T>(d: Descriptor) => JSON.parse(blob(d).toString('utf8')) as T;
  let manifests = (
    JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as { manifests: Descriptor[] }
  ).manifests;
  if (manifests[0]?.mediaType === 'application/vnd.oci.image.index.v1+json')
    manifests = json<{ manifests: Descriptor[] }>(manifests[0]).manifests;
  return manifests.map((descriptor) => {
    const manifest = json<{ config: Descriptor; layers: Descriptor[] }>(descriptor);
    const record = json<{
      Ref: string;
      localState: { Target: string };
      CreatedAt: { seconds: number; nanos: number };
      CompletedAt: { seconds: number; nanos: number };
      numCachedSteps: number;
      numTotalSteps: number;
    }>(manifest.config);
    const layer = (type: string) => manifest.layers.find((l) => l.mediaType === type);
    const provenance = manifest.layers.find(
      (l) => l.annotations?.['in-toto.io/predicate-type'] === 'https://slsa.dev/provenance/v1',
    );
    return {
      record,
      trace: blob(layer('application/vnd.buildkit.otlp.json.v0')!).toString('utf8'),
      status: blob(layer('application/vnd.buildkit.status.v0')!),
      provenance: provenance && blob(provenance).toString('utf8'),
    };
  });
}

function readWithProduct(file: string) {
  const tar = parseTarMembers(gunzipSync(readFileSync(path.join(fixtures, file))), {
    maxMemberBytes: 2 ** 27,
  });
  expect(tar.unsafe).toEqual([]);
  expect(tar.damage).toBeUndefined();
  return parseDockerbuild(file, tar.files);
}

const files = readdirSync(fixtures).filter((name) => name.endsWith('.dockerbuild'));
/** An RFC 3339 time with nanoseconds, as epoch ns. */
function toNs(time: string): bigint {
  const [, whole = '', fraction = ''] = /^([^.Z]+)(?:\.(\d+))?Z$/.exec(time) ?? [];
  return BigInt(Date.parse(`${whole}Z`)) * 1_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9));
}

const toMs = (t: { seconds: number; nanos: number }) => t.seconds * 1000 + Math.floor(t.nanos / 1e6);

describe.each(files)('%s', (file) => {
  const expected = readByHand(file);
  const records = readWithProduct(file);

  it('holds the records index.json names, each with its target, times, step counts and blobs', () => {
    expect(records.map((r) => r.ref)).toEqual(expected.map((e) => e.record.Ref));
    expect(records.map((r) => r.target)).toEqual(expected.map((e) => e.record.localState.Target));
    expect(records.map((r) => [r.createdAtMs, r.completedAtMs])).toEqual(
      expected.map((e) => [toMs(e.record.CreatedAt), toMs(e.record.CompletedAt)]),
    );
    expect(records.map((r) => [r.steps.cached, r.steps.total])).toEqual(
      expected.map((e) => [e.record.numCachedSteps, e.record.numTotalSteps]),
    );
    expect(records.map((r) => r.trace)).toEqual(expected.map((e) => e.trace));
    records.forEach((record, index) => expect(record.status?.equals(expected[index]!.status)).toBe(true));
  });

  it('becomes one run: a target per record, the blobs as its files, their digests in run.json', () => {
    const run = buildCiRun({ records, file, sha256: 'f'.repeat(64) });
    expect(Object.keys(run.runFile.targets)).toEqual(expected.map((e) => e.record.localState.Target));
    for (const { record, trace, provenance } of expected) {
      const target = record.localState.Target;
      expect(run.files.get(`trace-${target}.json`)).toBe(trace);
      expect(run.files.get(`provenance-${target}.json`)).toBe(provenance);
      expect(run.runFile.targets[target]).toEqual({
        status: 'ok',
        node: 'ci',
        startedAtMs: toMs(record.CreatedAt),
        finishedAtMs: toMs(record.CompletedAt),
        buildRef: record.Ref,
      });
      expect(run.runFile.evidence?.provenance[target]).toEqual({
        mode: 'max',
        source: 'attachment',
        file: `provenance-${target}.json`,
        slsa: 'v1',
      });
    }
    for (const [name, text] of run.files) {
      if (name === 'run.json') continue;
      expect(run.runFile.files?.[name]?.sha256, name).toBe(createHash('sha256').update(text).digest('hex'));
    }
    expect(run.runFile.imported?.records.map((r) => r.ref)).toEqual(expected.map((e) => e.record.Ref));
  });
});

describe('the status log against buildx’s own rawjson stream of the same build', () => {
  const rawjsons = readdirSync(fixtures).filter((name) => /^rawjson-.+\.jsonl$/.test(name));

  it.each(rawjsons)(
    '%s: every vertex of the record with the cached flag and times buildx printed',
    (name) => {
      const target = /^rawjson-(.+)\.jsonl$/.exec(name)?.[1] ?? '';
      // The builds buildx printed are the records of several-records (earlier-records is the run before them).
      const record = readByHand('several-records.dockerbuild').find(
        (entry) => entry.record.localState.Target === target,
      );
      expect(record, target).toBeDefined();
      const printed = new Map<string, { cached: boolean; started?: string; completed?: string }>();
      for (const line of readFileSync(path.join(fixtures, name), 'utf8').split('\n').filter(Boolean))
        for (const v of (
          JSON.parse(line) as {
            vertexes: { digest: string; cached?: boolean; started?: string; completed?: string }[];
          }
        ).vertexes) {
          const known = printed.get(v.digest) ?? { cached: false };
          printed.set(v.digest, {
            cached: known.cached || v.cached === true,
            started: known.started ?? v.started,
            completed: v.completed ?? known.completed,
          });
        }
      const decoded = new Map<string, { cached: boolean; started?: string; completed?: string }>();
      for (const update of parseStatusLog(record!.status))
        for (const v of update) {
          const known = decoded.get(v.digest) ?? { cached: false };
          decoded.set(v.digest, {
            cached: known.cached || v.cached,
            started: known.started ?? v.started,
            completed: v.completed ?? known.completed,
          });
        }
      expect(decoded.size).toBeGreaterThan(3);
      // buildx shifts the times it prints onto its own clock by one offset per build (buildx v0.36.1
      // util/progress/reset.go, ResetTime); the record keeps BuildKit's. So: the same flags, one shift for every time.
      const shifts = new Set<bigint>();
      for (const [digest, vertex] of decoded) {
        const seen = printed.get(digest);
        expect(seen?.cached, digest).toBe(vertex.cached);
        for (const key of ['started', 'completed'] as const) {
          expect(seen?.[key] === undefined, `${digest} ${key}`).toBe(vertex[key] === undefined);
          if (vertex[key] !== undefined) shifts.add(toNs(vertex[key]) - toNs(seen![key]!));
        }
      }
      expect(shifts.size, [...shifts].join(', ')).toBe(1);
      // On BuildKit's own clock: inside the record's CreatedAt → CompletedAt (its last vertex ends microseconds
      // before CompletedAt, so a shifted decoding falls out).
      const ns = (t: { seconds: number; nanos: number }) =>
        BigInt(t.seconds) * 1_000_000_000n + BigInt(t.nanos);
      const times = [...decoded.values()]
        .flatMap((v) => [v.started, v.completed])
        .filter((t) => t !== undefined);
      expect(
        times.filter(
          (t) => toNs(t) < ns(record!.record.CreatedAt) || toNs(t) > ns(record!.record.CompletedAt),
        ),
      ).toEqual([]);
      const cached = [...decoded.values()].filter((v) => v.cached).length;
      expect(cached).toBe(record!.record.numCachedSteps);
    },
  );
});

describe('the trace blob against buildx’s own `history trace` of the same build', () => {
  const traces = readdirSync(fixtures).filter((name) => /^history-trace-.+\.json\.gz$/.test(name));

  it.each(traces)('%s: the same spans, ids and times', (name) => {
    const target = /^history-trace-(.+)\.json\.gz$/.exec(name)?.[1] ?? '';
    // The builds buildx printed are the records of several-records (earlier-records is the run before them).
    const record = readByHand('several-records.dockerbuild').find(
      (entry) => entry.record.localState.Target === target,
    );
    const jaeger = JSON.parse(gunzipSync(readFileSync(path.join(fixtures, name))).toString('utf8')) as {
      data: { spans: { spanID: string; operationName: string; startTime: number; duration: number }[] }[];
    };
    const fromJaeger = new Map(
      jaeger.data
        .flatMap((t) => t.spans)
        .map((s) => [s.spanID, `${s.operationName} ${s.startTime} ${s.duration}`]),
    );
    // The span stream: one indented JSON object per span, concatenated; split at the lines `}` closes at column 0.
    const stubs = record!.trace.split(/\n(?=\{)/).map(
      (text) =>
        JSON.parse(text) as {
          Name: string;
          SpanContext: { SpanID: string };
          StartTime: string;
          EndTime: string;
        },
    );
    // Jaeger's microseconds: start truncated, duration = (end − start) in ns, truncated (buildx's conversion).
    const fromRecord = new Map(
      stubs.map((s) => [
        s.SpanContext.SpanID,
        `${s.Name} ${toNs(s.StartTime) / 1000n} ${(toNs(s.EndTime) - toNs(s.StartTime)) / 1000n}`,
      ]),
    );
    expect(fromRecord.size).toBeGreaterThan(10);
    expect([...fromRecord.keys()].sort()).toEqual([...fromJaeger.keys()].sort());
    for (const [id, span] of fromRecord) expect(span, id).toBe(fromJaeger.get(id));
  });
});
