import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuilderEvidence, BuilderIdentity, RunEvidence } from '../../artifacts/index.js';
import { parseCacheDebug } from '../../collect/buildkit/parse-cache-debug.js';
import type { FleetNode } from '../../config/schema.js';
import { errorMessage } from '../../shared/error-message.js';
import type { FetchOverSsh, FetchOverSshResult } from '../executors/fetch-over-ssh.js';
import type { RunContext } from './load-run-context.js';
import { readBuildMetadata } from './read-build-metadata.js';

// After the run's last build (finalize): what each builder recorded for explaining its misses
// (docs/cache-debug.md). One GET of /debug/cache/all per builder, over the node's ssh link, saved raw as
// cache-debug-<node>.json; each finished target's metadata file checked for mode=max provenance. Whatever a
// builder does not record becomes a note naming the setting that would give it.

/** Cap on one builder's /debug/cache/all body: the database grows across runs (docs/cache-debug.md). */
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

/** Pure: which provenance a target's metadata entry carries (any `buildx.build.provenance[/<platform>]` key). */
function toProvenanceMode(entry: Record<string, unknown> | undefined): 'max' | 'min' | 'none' {
  const provenances = Object.entries(entry ?? {})
    .filter(([key]) => key === 'buildx.build.provenance' || key.startsWith('buildx.build.provenance/'))
    .map(([, value]) => value);
  if (provenances.length === 0) return 'none';
  const isMax = (value: unknown) =>
    typeof value === 'object' && value !== null && 'buildConfig' in value && 'metadata' in value;
  return provenances.every(isMax) ? 'max' : 'min';
}

/** Pure: one note for the targets whose metadata lacks mode=max provenance, naming the settings. */
function toProvenanceNote(provenance: Readonly<Record<string, 'max' | 'min' | 'none'>>): string[] {
  const lacking = Object.entries(provenance)
    .filter(([, mode]) => mode !== 'max')
    .map(([target, mode]) => `${target} (${mode})`);
  if (lacking.length === 0) return [];
  return [
    `${lacking.length} target(s) have no mode=max provenance in their metadata file: ${lacking.join(', ')}: add attest = ["type=provenance,mode=max"] to those bake targets (buildx ≥ 0.14.0 copies it into the metadata file; the harness sets BUILDX_METADATA_PROVENANCE=max); without it, build args, input digests and each step's LLB are unknown (docs/cache-debug.md)`,
  ];
}

export interface SaveBuilderEvidenceOptions {
  context: RunContext;
  fetchOverSsh: FetchOverSsh;
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
  const provenance: Record<string, 'max' | 'min' | 'none'> = {};
  for (const target of [...options.finishedTargets].sort()) {
    const entry = await readBuildMetadata(path.join(context.runDir, `meta-${target}.json`), target);
    provenance[target] = toProvenanceMode(entry);
  }
  const notes = [
    ...builders.flatMap((builder) =>
      builder.cacheDebug.note === undefined ? [] : [builder.cacheDebug.note],
    ),
    ...toProvenanceNote(provenance),
  ];
  return { builders, provenance, notes };
}
