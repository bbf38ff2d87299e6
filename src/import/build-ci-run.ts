import { createHash } from 'node:crypto';
import { RUN_VERSION, type RunFile, type TargetProvenance } from '../artifacts/index.js';
import { parseBuildkitTrace } from '../collect/index.js';
import type { DockerbuildRecord } from './parse-dockerbuild.js';
import { parseStatusLog, renderStatusLines } from './parse-status-log.js';

// The records of one .dockerbuild → the files of one run dir (docs/dockerbuild.md): one target per record, its
// trace as trace-<target>.json (BuildKit's span stream, which the report parses as it is), its status log as
// status-<target>.jsonl (rawjson vertex lines), its SLSA provenance as provenance-<target>.json; run.json says
// where it came from (`dockerbuild`) and what a record cannot hold. Pure: the caller writes the files.

/** The SLSA provenance predicate types BuildKit attaches, newest first. */
const PROVENANCE_TYPES = ['https://slsa.dev/provenance/v1', 'https://slsa.dev/provenance/v0.2'];

/** The one node a CI record is placed on: a record names no builder node. */
const CI_NODE = 'ci';

export interface CiRun {
  stamp: string;
  runFile: RunFile;
  /** File name in the run dir → its text. */
  files: Map<string, string>;
}

export interface BuildCiRunOptions {
  records: readonly DockerbuildRecord[];
  /** The .dockerbuild as given (for run.json and messages) and its bytes' SHA-256. */
  file: string;
  sha256: string;
}

/** `20261206T215710Z` from epoch ms. */
const toCompactTime = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/** A target name that is a file name of the run dir's own; a second record of one target gets `-2`, `-3`… */
function toTargetNames(records: readonly DockerbuildRecord[]): string[] {
  const used = new Set<string>();
  return records.map((record) => {
    const base =
      /^[\w.-]+$/.test(record.target) && !record.target.startsWith('.') ? record.target : record.ref;
    let name = base;
    for (let n = 2; used.has(name); n += 1) name = `${base}-${n}`;
    used.add(name);
    return name;
  });
}

function toProvenance(
  record: DockerbuildRecord,
): { text: string; slsa: TargetProvenance['slsa']; mode: TargetProvenance['mode'] } | undefined {
  for (const type of PROVENANCE_TYPES) {
    const found = record.attestations.find((attestation) => attestation.predicateType === type);
    if (found === undefined) continue;
    // mode=max carries the LLB: buildConfig (v0.2) or buildDefinition.internalParameters.buildConfig (v1).
    const max = found.text.includes('"buildConfig"');
    return { text: found.text, slsa: type.endsWith('v1') ? 'v1' : 'v0.2', mode: max ? 'max' : 'min' };
  }
  return undefined;
}

/** What a build record cannot hold, said in run.json's warnings and by the report for each absent file. */
const NOT_IN_A_RECORD =
  'not recorded in a .dockerbuild: a BuildKit build record holds the build (trace, steps, cache use, provenance), not the fleet around it: no node samples (samples.jsonl), sccache log (sccache.log), registry log (zot.jsonl), plan (plan.json) or published artifacts (artifacts.txt)';

function toOutcome(record: DockerbuildRecord, startedAtMs: number): RunFile['targets'][string] {
  const finishedAtMs = record.completedAtMs ?? record.createdAtMs ?? startedAtMs;
  const base = {
    node: CI_NODE,
    startedAtMs: record.createdAtMs ?? startedAtMs,
    finishedAtMs,
    buildRef: record.ref,
  };
  return record.error === undefined
    ? { status: 'ok', ...base }
    : { status: 'failed', ...base, exitCode: null, error: record.error };
}

/** The image refs a record's image exporters pushed (their `name`, comma-separated). */
function listImages(record: DockerbuildRecord): string[] {
  return record.exporters
    .filter((exporter) => exporter.type === 'image')
    .flatMap((exporter) => (exporter.attrs.name ?? '').split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** The registry refs a record imports cache from: a push to one of them is its cache export. */
function listCacheRefs(record: DockerbuildRecord): string[] {
  try {
    const imports = JSON.parse(record.frontendAttrs['cache-imports'] ?? '[]') as unknown;
    if (!Array.isArray(imports)) return [];
    return imports.flatMap((entry) => {
      const ref = (entry as { Attrs?: { ref?: unknown } } | null)?.Attrs?.ref;
      return typeof ref === 'string' ? [ref] : [];
    });
  } catch {
    return [];
  }
}

/** A record depends on the records of the file whose target it names as a build context (`context:<target>`). */
function listDeps(record: DockerbuildRecord, targets: ReadonlySet<string>, self: string): string[] {
  return Object.keys(record.frontendAttrs)
    .filter((key) => key.startsWith('context:'))
    .map((key) => key.slice('context:'.length))
    .filter((name) => name !== self && targets.has(name))
    .sort();
}

/** The registry namespace of an image ref: its path without the host and the repository's last part. */
function toNamespace(image: string | undefined): string {
  const path = (image ?? '').replace(/[:@][^/]*$/, '').split('/');
  if (path.length > 1 && /[.:]|^localhost$/.test(path[0] ?? '')) path.shift();
  return path.slice(0, -1).join('/');
}

function toFileRecord(name: string, text: string, target: string): NonNullable<RunFile['files']>[string] {
  const bytes = Buffer.from(text, 'utf8');
  const record = { sizeBytes: bytes.length, sha256: toSha256(bytes) };
  if (!name.startsWith('trace-')) return record;
  return { ...record, traceIds: parseBuildkitTrace(text, { source: name, target }).extent.traceIds };
}

export function buildCiRun({ records, file, sha256 }: BuildCiRunOptions): CiRun {
  const names = toTargetNames(records);
  const targetSet = new Set(names);
  const starts = records.flatMap((record) => (record.createdAtMs === undefined ? [] : [record.createdAtMs]));
  const ends = records.flatMap((record) =>
    record.completedAtMs === undefined ? [] : [record.completedAtMs],
  );
  const startedAtMs = starts.length > 0 ? Math.min(...starts) : 0;
  const finishedAtMs = ends.length > 0 ? Math.max(...ends) : null;
  const files = new Map<string, string>();
  const fileRecords: NonNullable<RunFile['files']> = {};
  const warnings: string[] = [NOT_IN_A_RECORD];
  const targets: RunFile['targets'] = {};
  const deps: NonNullable<RunFile['deps']> = {};
  const provenance: Record<string, TargetProvenance> = {};
  const uploadRefs: NonNullable<RunFile['uploadRefs']> = {};
  const keep = (name: string, text: string, target: string) => {
    files.set(name, text);
    fileRecords[name] = toFileRecord(name, text, target);
  };
  records.forEach((record, index) => {
    const target = names[index] ?? record.ref;
    targets[target] = toOutcome(record, startedAtMs);
    deps[target] = listDeps(record, targetSet, target);
    if (record.trace !== undefined) keep(`trace-${target}.json`, record.trace, target);
    else warnings.push(`record ${record.ref} (${target}) holds no trace: export it with \`--finalize\``);
    if (record.status !== undefined) {
      try {
        keep(`status-${target}.jsonl`, renderStatusLines(parseStatusLog(record.status)), target);
      } catch (error) {
        warnings.push(
          `record ${record.ref} (${target}): its status log is damaged (${(error as Error).message}); left out`,
        );
      }
    }
    const kept = toProvenance(record);
    if (kept !== undefined) {
      keep(`provenance-${target}.json`, kept.text, target);
      provenance[target] = {
        mode: kept.mode,
        source: 'attachment',
        file: `provenance-${target}.json`,
        slsa: kept.slsa,
      };
    }
    uploadRefs[target] = { image: listImages(record), cache: listCacheRefs(record) };
  });
  const first = records[0];
  const attrs = first?.frontendAttrs ?? {};
  // The same records give the same stamp (a second import is refused without --force); another set, another.
  const refsDigest = toSha256(Buffer.from(records.map((record) => record.ref).join('\n'))).slice(0, 8);
  const stamp = `${toCompactTime(startedAtMs)}-${refsDigest}`;
  const runFile: RunFile = {
    version: RUN_VERSION,
    stamp,
    harness: 'warm',
    namespace: toNamespace(first === undefined ? undefined : listImages(first)[0]),
    arch: attrs['build-arg:GFX_ARCH'] ?? first?.platform ?? 'unknown',
    sccachePrefix: attrs['build-arg:SCCACHE_WEBDAV_KEY_PREFIX'] ?? '',
    liveSccachePrefix: attrs['build-arg:SCCACHE_WEBDAV_KEY_PREFIX'] ?? '',
    fleetPath: '',
    status: records.some((record) => record.error !== undefined) ? 'failed' : 'completed',
    startedAtMs,
    measuredStartedAtMs: startedAtMs,
    finishedAtMs,
    exitCode: null,
    nodes: [{ name: CI_NODE, builder: CI_NODE, linkMbps: 0, speed: 1 }],
    targets,
    bootstrapped: [],
    registryCachePatterns: [],
    registryLogFormat: 'zot',
    warnings,
    mode: 'warm',
    files: fileRecords,
    deps,
    uploadRefs,
    evidence: { builders: [], provenance, notes: [] },
    imported: {
      from: 'dockerbuild',
      file,
      sha256,
      records: records.map((record, index) => ({ ref: record.ref, target: names[index] ?? record.ref })),
    },
  };
  files.set('run.json', `${JSON.stringify(runFile, null, 2)}\n`);
  return { stamp, runFile, files };
}

/** SHA-256 of bytes, hex. */
export const toSha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
