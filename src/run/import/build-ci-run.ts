import { createHash } from 'node:crypto';
import { RUN_VERSION, type RunFile, type TargetProvenance } from '../../artifacts/index.js';
import type { DockerbuildRecord } from './parse-dockerbuild.js';
import { parseStatusLog, renderStatusLines } from './parse-status-log.js';

// The records of one .dockerbuild → the files of one run dir (docs/dockerbuild.md): one target per record, its
// trace as trace-<target>.json (BuildKit's span stream, which the report parses as it is), its status log as
// status-<target>.jsonl (rawjson vertex lines), its SLSA provenance as provenance-<target>.json; run.json says
// where it came from (`dockerbuild`) and what a record cannot hold. Pure: the caller writes the files.

/** The SLSA provenance predicate types BuildKit attaches, newest first. */
const PROVENANCE_TYPES = ['https://slsa.dev/provenance/v1', 'https://slsa.dev/provenance/v0.2'];

/** The one node a CI record is placed on: a record names no builder node. */
export const CI_NODE = 'ci';

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
export const NOT_IN_A_RECORD =
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

export function buildCiRun({ records, file, sha256 }: BuildCiRunOptions): CiRun {
  const names = toTargetNames(records);
  const starts = records.flatMap((record) => (record.createdAtMs === undefined ? [] : [record.createdAtMs]));
  const ends = records.flatMap((record) =>
    record.completedAtMs === undefined ? [] : [record.completedAtMs],
  );
  const startedAtMs = starts.length > 0 ? Math.min(...starts) : 0;
  const finishedAtMs = ends.length > 0 ? Math.max(...ends) : null;
  const files = new Map<string, string>();
  const warnings: string[] = [NOT_IN_A_RECORD];
  const targets: RunFile['targets'] = {};
  const provenance: Record<string, TargetProvenance> = {};
  const uploadRefs: NonNullable<RunFile['uploadRefs']> = {};
  records.forEach((record, index) => {
    const target = names[index] ?? record.ref;
    targets[target] = toOutcome(record, startedAtMs);
    if (record.trace !== undefined) files.set(`trace-${target}.json`, record.trace);
    else warnings.push(`record ${record.ref} (${target}) holds no trace: export it with \`--finalize\``);
    if (record.status !== undefined) {
      try {
        files.set(`status-${target}.jsonl`, renderStatusLines(parseStatusLog(record.status)));
      } catch (error) {
        warnings.push(
          `record ${record.ref} (${target}): its status log is damaged (${(error as Error).message}); left out`,
        );
      }
    }
    const kept = toProvenance(record);
    if (kept !== undefined) {
      files.set(`provenance-${target}.json`, kept.text);
      provenance[target] = {
        mode: kept.mode,
        source: 'attachment',
        file: `provenance-${target}.json`,
        slsa: kept.slsa,
      };
    }
    const images = (record.exporterResponse['image.name'] ?? '').split(',').filter((name) => name !== '');
    uploadRefs[target] = { image: images, cache: [] };
  });
  const first = records[0];
  const stamp = `${toCompactTime(startedAtMs)}-${(first?.ref ?? 'record').slice(0, 8).toLowerCase()}`;
  const runFile: RunFile = {
    version: RUN_VERSION,
    stamp,
    harness: 'warm',
    namespace: '',
    arch: first?.platform ?? 'unknown',
    sccachePrefix: '',
    liveSccachePrefix: '',
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
