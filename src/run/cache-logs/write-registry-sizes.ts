import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fetchBlobSizes, readRegistryLog, type RegistryRecord } from '../../collect/index.js';
import {
  RUN_DIR_FILES,
  REGISTRY_SIZES_VERSION,
  RegistrySizesFileSchema,
  toRegistrySizeKey,
  type RegistrySizesFile,
} from '../../artifacts/index.js';

// CNCF Distribution (docker-registry) logs no request size, so a run's registry slice would give 0 bytes written.
// When the harness has sliced the log, it asks the registry for the size of each blob and manifest the slice shows
// written without one (a HEAD answers its Content-Length) and keeps them in registry-sizes.json beside the slice:
// the report reads them from there and stays offline (docs/collectors-logs.md, "Sizes a Distribution log lacks").

export interface WriteRegistrySizesOptions {
  runDir: string;
  /** The registry slice in the run dir (zot.jsonl, whatever the format). */
  sliceFile: string;
  /** fleet.yaml registry.url. */
  registryUrl: string;
  cachePatterns: readonly string[];
  nowMs: () => number;
  /** HEAD concurrency (default 8). */
  concurrency?: number;
}

export interface WrittenRegistrySizes {
  /** Writes the slice gave no size. */
  unsized: number;
  /** Of them, sized by the registry. */
  sized: number;
  /** One line per HEAD that failed, for run.json's warnings. */
  warnings: string[];
}

const isUnsizedWrite = (record: RegistryRecord) =>
  record.bytes === null && (record.kind === 'blob-write' || record.kind === 'manifest-write');

export async function writeRegistrySizes(options: WriteRegistrySizesOptions): Promise<WrittenRegistrySizes> {
  const { records } = await readRegistryLog({
    path: path.join(options.runDir, options.sliceFile),
    format: 'distribution',
    cachePatterns: options.cachePatterns,
    keep: isUnsizedWrite,
  });
  const fetchedAtMs = options.nowMs();
  const fetched = await fetchBlobSizes({
    registryUrl: options.registryUrl,
    records,
    concurrency: options.concurrency,
  });
  const sizes: Record<string, number> = {};
  for (const record of fetched.records) {
    if (record.bytes === null || record.repository === undefined || record.reference === undefined) continue;
    sizes[toRegistrySizeKey(record.repository, record.reference)] = record.bytes;
  }
  const file: RegistrySizesFile = RegistrySizesFileSchema.parse({
    version: REGISTRY_SIZES_VERSION,
    registryUrl: options.registryUrl,
    fetchedAtMs,
    sizes,
    failures: fetched.failures,
  });
  const target = path.join(options.runDir, RUN_DIR_FILES.registrySizes);
  await writeFile(`${target}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
  await rename(`${target}.tmp`, target);
  const sized = fetched.records.filter((record) => record.bytes !== null).length;
  return {
    unsized: records.length,
    sized,
    warnings: fetched.failures.map(
      (failure) =>
        `registry sizes: HEAD ${failure.url} gave no size (${failure.error}); that write stays without a size in the report`,
    ),
  };
}
