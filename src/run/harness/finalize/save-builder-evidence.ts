import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  BuilderEvidence,
  BuilderIdentity,
  RunEvidence,
  TargetProvenance,
} from '../../../artifacts/index.js';
import { parseCacheDebug } from '../../../collect/index.js';
import type { FleetNode } from '../../../config/index.js';
import { errorMessage } from '../../../shared/error-message.js';
import type { FetchOverSsh, FetchOverSshResult, FetchAttachment } from '../../executors/index.js';
import type { RunContext } from '../context/index.js';
import { readBuildMetadata } from '../record/index.js';

// After the run's last build (finalize): what each builder recorded for explaining its misses
// (docs/cache-debug.md). One GET of /debug/cache/all per builder, over the node's ssh link, saved raw as
// cache-debug-<node>.json; each finished target's metadata file checked for mode=max provenance. Whatever a
// builder does not record becomes a note naming the setting that would give it.

/** Cap on one builder's /debug/cache/all body: the database grows across runs (docs/cache-debug.md). @internal */
export const CACHE_DEBUG_MAX_BYTES = 64 * 1024 * 1024;
const CACHE_DEBUG_TIMEOUT_MS = 60_000;
const CACHE_DEBUG_PATH = '/debug/cache/all';

const toCacheDebugFileName = (node: string) => `cache-debug-${node}.json`;

type CacheDebugEvidence = BuilderEvidence['cacheDebug'];

const enable = (address: string) =>
  `start buildkitd (BuildKit ≥ 0.24.0) with --save-cache-debug --debugaddr ${address}`;

/** Pure: a builder whose fleet.yaml entry names no debug address. */
function toOffEvidence(node: FleetNode): CacheDebugEvidence {
  return {
    status: 'off',
    note: `builder ${node.builder} (node ${node.name}) records no cache-key debug database: ${enable('127.0.0.1:6060')} and set buildkit_debug: 127.0.0.1:6060 on node ${node.name} in fleet.yaml (docs/cache-debug.md)`,
  };
}

/**
 * Pure: what one /debug/cache/all answer means. `records` is the parsed count (undefined when the body is not
 * the records: `invalid`).
 */
function toCacheDebugEvidence(options: {
  node: Pick<FleetNode, 'name' | 'builder'>;
  address: string;
  result: FetchOverSshResult;
  parse: (body: Buffer) => { records: number } | { error: string };
  maxBytes: number;
}): CacheDebugEvidence {
  const { node, address, result } = options;
  const who = `builder ${node.builder} (node ${node.name})`;
  const key = `buildkit_debug: ${address}`;
  if (!result.ok) {
    if (result.stage === 'too-large')
      return {
        status: 'too-large',
        address,
        note: `${who}: its cache-key debug database is over the ${Math.round(options.maxBytes / 2 ** 20)} MiB cap rocm-perf reads (${result.reason}); not saved. Reset it: stop buildkitd, remove <root>/cache-debug.db, start it again (docs/cache-debug.md)`,
      };
    return {
      status: 'unreachable',
      address,
      note: `${who}: nothing answered at its debug address ${address} over the node's ssh link (${result.reason}): ${enable(address)}, or fix ${key} in fleet.yaml`,
    };
  }
  if (result.status === 404)
    return {
      status: 'unavailable',
      address,
      note: `${who}: buildkitd at ${address} serves no ${CACHE_DEBUG_PATH} (HTTP 404: BuildKit older than 0.24.0): upgrade it and ${enable(address)}`,
    };
  if (result.status !== 200)
    return {
      status: 'unreachable',
      address,
      note: `${who}: ${address}${CACHE_DEBUG_PATH} answered HTTP ${result.status}: ${result.body.toString('utf8').trim().slice(0, 120)}`,
    };
  const parsed = options.parse(result.body);
  if ('error' in parsed)
    return {
      status: 'invalid',
      address,
      note: `${who}: ${address}${CACHE_DEBUG_PATH} did not answer with the cache-key records (${parsed.error}); is ${key} buildkitd's --debugaddr?`,
    };
  if (parsed.records === 0)
    return {
      status: 'empty',
      address,
      records: 0,
      note: `${who}: its cache-key debug database at ${address} is empty after the run: buildkitd was started without --save-cache-debug; ${enable(address)}`,
    };
  return { status: 'saved', address, records: parsed.records, sizeBytes: result.body.length };
}

function parseRecordCount(body: Buffer, source: string): { records: number } | { error: string } {
  try {
    return { records: parseCacheDebug(body.toString('utf8'), source).records.size };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

async function saveCacheDebug(options: {
  context: RunContext;
  node: FleetNode;
  fetchOverSsh: FetchOverSsh;
  maxBytes: number;
}): Promise<CacheDebugEvidence> {
  const { context, node } = options;
  const debug = node.buildkitDebug;
  if (debug === undefined || node.ssh === undefined) return toOffEvidence(node);
  const address = debug.host.includes(':') ? `[${debug.host}]:${debug.port}` : `${debug.host}:${debug.port}`;
  const file = toCacheDebugFileName(node.name);
  const result = await options.fetchOverSsh({
    ssh: node.ssh,
    host: debug.host,
    port: debug.port,
    path: CACHE_DEBUG_PATH,
    headers: { accept: 'application/json' },
    maxBytes: options.maxBytes,
    timeoutMs: CACHE_DEBUG_TIMEOUT_MS,
  });
  const evidence = toCacheDebugEvidence({
    node,
    address,
    result,
    parse: (body) => parseRecordCount(body, file),
    maxBytes: options.maxBytes,
  });
  if (evidence.status !== 'saved' || !result.ok) return evidence;
  await writeFile(path.join(context.runDir, file), result.body);
  context.digests?.recordWhole(file, result.body);
  return { ...evidence, file };
}

type ProvenanceMode = TargetProvenance['mode'];
type ProvenanceShape = Pick<TargetProvenance, 'mode' | 'slsa'>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Pure: what a provenance predicate holds. v1 (BuildKit ≥ 0.28's default): `buildDefinition` with
 * `internalParameters.buildConfig` and `runDetails.metadata.buildkit_metadata`; v0.2: `buildConfig` and
 * `metadata`. buildx before 0.26.0 decodes a v1 predicate as v0.2 and writes an empty shell into the metadata file
 * (`{"buildType":"","invocation":{…}}`): min, so the harness reads the record's attachment instead.
 */
function toPredicateShape(predicate: unknown): ProvenanceShape {
  if (!isObject(predicate)) return { mode: 'none', slsa: 'v0.2' };
  const definition = predicate.buildDefinition;
  if (isObject(definition)) {
    const internal = definition.internalParameters;
    const run = predicate.runDetails;
    const metadata = isObject(run) ? run.metadata : undefined;
    const full =
      isObject(internal) &&
      'buildConfig' in internal &&
      isObject(metadata) &&
      'buildkit_metadata' in metadata;
    return { mode: full ? 'max' : 'min', slsa: 'v1' };
  }
  return { mode: 'buildConfig' in predicate && 'metadata' in predicate ? 'max' : 'min', slsa: 'v0.2' };
}

/**
 * Pure: whether a metadata entry's provenance says nothing: absent, or the empty shell an old buildx writes for a
 * v1 predicate (no `invocation.parameters` content). A genuine mode=min predicate (args, frontend) is not empty:
 * the record holds the same min predicate, so it is not asked for.
 */
function isEmptyProvenance(entry: Record<string, unknown> | undefined): boolean {
  const predicate = entry?.['buildx.build.provenance'];
  if (!isObject(predicate))
    return !Object.keys(entry ?? {}).some((key) => key.startsWith('buildx.build.provenance/'));
  const invocation = predicate.invocation;
  const parameters = isObject(invocation) ? invocation.parameters : undefined;
  return !isObject(parameters) || Object.keys(parameters).length === 0;
}

/** Pure: the provenance in a target's metadata entry (`buildx.build.provenance[/<platform>]`; every platform's). */
function toMetadataProvenance(entry: Record<string, unknown> | undefined): ProvenanceShape {
  const shapes = Object.entries(entry ?? {})
    .filter(([key]) => key === 'buildx.build.provenance' || key.startsWith('buildx.build.provenance/'))
    .map(([, value]) => toPredicateShape(value));
  const [first] = shapes;
  if (first === undefined) return { mode: 'none', slsa: 'v0.2' };
  const mode: ProvenanceMode = shapes.every((shape) => shape.mode === 'max') ? 'max' : 'min';
  return { mode, slsa: first.slsa };
}

/** Pure: one note for the targets kept without mode=max provenance, naming the settings. */
function toProvenanceNote(provenance: Readonly<Record<string, TargetProvenance>>): string[] {
  const lacking = Object.entries(provenance)
    .filter(([, kept]) => kept.mode !== 'max')
    .map(([target, kept]) => `${target} (${kept.mode})`);
  if (lacking.length === 0) return [];
  return [
    `${lacking.length} target(s) have no mode=max provenance: ${lacking.join(', ')}: add attest = ["type=provenance,mode=max"] to those bake targets (the harness sets BUILDX_METADATA_PROVENANCE=max and reads a record's provenance with \`buildx history inspect attachment\` where the metadata file lacks it); without it, build args, input digests and each step's LLB are unknown (docs/cache-debug.md)`,
  ];
}

/** Predicate types of BuildKit's provenance, newest first (`history inspect attachment --type`). */
const PROVENANCE_TYPES = ['https://slsa.dev/provenance/v1', 'https://slsa.dev/provenance/v0.2'];

/**
 * A target's provenance: its metadata file's when it says anything, else (none, or an old buildx's empty shell)
 * the build record's attachment, saved raw.
 */
async function keepProvenance(options: {
  context: RunContext;
  target: string;
  fetchAttachment: FetchAttachment;
}): Promise<TargetProvenance> {
  const { context, target } = options;
  const metaFile = `meta-${target}.json`;
  const entry = await readBuildMetadata(path.join(context.runDir, metaFile), target);
  const fromMetadata: TargetProvenance = {
    ...toMetadataProvenance(entry),
    source: 'metadata',
    file: metaFile,
  };
  const buildRef = entry?.['buildx.build.ref'];
  if (fromMetadata.mode === 'max' || buildRef === undefined || !isEmptyProvenance(entry)) return fromMetadata;
  const builder = buildRef.split('/')[0] ?? '';
  for (const type of PROVENANCE_TYPES) {
    const outcome = await options.fetchAttachment({
      builder,
      buildRef,
      type,
      buildx: context.config.buildx?.path,
    });
    if (!outcome.ok) continue;
    let predicate: unknown;
    try {
      predicate = JSON.parse(outcome.stdout);
    } catch {
      continue;
    }
    const shape = toPredicateShape(predicate);
    if (shape.mode === 'none') continue;
    const file = `provenance-${target}.json`;
    await writeFile(path.join(context.runDir, file), outcome.stdout);
    context.digests?.recordWhole(file, outcome.stdout);
    return { ...shape, source: 'attachment', file };
  }
  return fromMetadata;
}

export interface SaveBuilderEvidenceOptions {
  context: RunContext;
  fetchOverSsh: FetchOverSsh;
  /** `buildx history inspect attachment` of one record (the provenance a metadata file lacks). */
  fetchAttachment: FetchAttachment;
  /** Targets whose bake succeeded (only they have a metadata file). */
  finishedTargets: readonly string[];
  /** Each node's builder before the measured run (read-builder-identity.ts); a node without one: null. */
  identities?: ReadonlyMap<string, BuilderIdentity> | undefined;
  maxBytes?: number;
}

/** Saves each builder's cache-key debug database and checks the metadata files; returns run.json's `evidence`. */
export async function saveBuilderEvidence(options: SaveBuilderEvidenceOptions): Promise<RunEvidence> {
  const { context } = options;
  const maxBytes = options.maxBytes ?? CACHE_DEBUG_MAX_BYTES;
  const builders: BuilderEvidence[] = [];
  // One after another: one body in memory at a time.
  for (const node of context.config.nodes) {
    const cacheDebug = await saveCacheDebug({ context, node, fetchOverSsh: options.fetchOverSsh, maxBytes });
    const identity = options.identities?.get(node.name) ?? null;
    builders.push({ node: node.name, builder: node.builder, cacheDebug, identity });
  }
  const provenance: Record<string, TargetProvenance> = {};
  for (const target of [...options.finishedTargets].sort())
    provenance[target] = await keepProvenance({ context, target, fetchAttachment: options.fetchAttachment });
  const notes = [
    ...builders.flatMap((builder) =>
      builder.cacheDebug.note === undefined ? [] : [builder.cacheDebug.note],
    ),
    ...toProvenanceNote(provenance),
  ];
  return { builders, provenance, notes };
}
