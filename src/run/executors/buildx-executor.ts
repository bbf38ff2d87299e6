import path from 'node:path';
import type { FileDigests } from '../../shared/file-digests.js';
import type { Logger } from '../../shared/logger.js';
import type { Bake, FindFailedBuild, RunBakeOptions } from './buildx.js';
import type { Executor } from './executor.js';

// The buildx executor the node queues run (docs/harness.md, phase 4): per target, one `buildx bake` on its node's
// builder into the run dir (meta-<target>.json, status-<target>.jsonl); for a failed or cancelled bake, the build
// record it left, whose partial trace shows how far it got. What the run decided (namespace, overrides, cache
// flags) arrives resolved: the harness's dispatch room builds these options from the run context.

/** The bake options every target of the run shares; the rest (builder, target, files, overrides) are per target. */
export type SharedBakeOptions = Pick<
  RunBakeOptions,
  'bakeFile' | 'buildx' | 'noCache' | 'clearCacheTo' | 'sccachePrefix' | 'push' | 'cwd' | 'env'
>;

export interface CreateBuildxExecutorOptions {
  runDir: string;
  /** Node name → its buildx builder. */
  builders: ReadonlyMap<string, string>;
  shared: SharedBakeOptions;
  /** A target's further `--set` values (namespace and published inputs). */
  toOverrides: (target: string) => string[];
  /** The build ref (`buildx.build.ref`) a finished bake's metadata file records; undefined: none. */
  readBuildRef: (metadataFile: string, target: string) => Promise<string | undefined>;
  /** The run's digests: each status stream is fed in as it is written. */
  digests: FileDigests | undefined;
  bake: Bake;
  findFailedBuild: FindFailedBuild;
  logger: Logger;
  onWriteError?: (file: string, error: unknown) => void;
}

export function createBuildxExecutor(options: CreateBuildxExecutorOptions): Executor {
  const { runDir, builders, shared, bake, findFailedBuild, logger, onWriteError } = options;
  return {
    async run(job, { signal }) {
      const metadataFile = path.join(runDir, `meta-${job.target}.json`);
      const builder = builders.get(job.node) ?? job.node;
      const sinceMs = Date.now();
      const outcome = await bake({
        ...shared,
        builder,
        target: job.target,
        metadataFile,
        statusFile: path.join(runDir, `status-${job.target}.jsonl`),
        onStatusBytes: toStatusDigest(options.digests, job.target),
        overrides: options.toOverrides(job.target),
        signal,
        ...(onWriteError ? { onWriteError } : {}),
      });
      if (outcome.ok) return { ok: true, buildRef: await options.readBuildRef(metadataFile, job.target) };
      // A bake cancelled by the interrupt left a record too: its partial trace shows how far it got.
      const found = await findFailedBuild({
        builder,
        buildx: shared.buildx,
        sinceMs,
        status: signal.aborted ? 'canceled' : 'error',
      });
      if (found !== undefined && 'reason' in found)
        logger.warn(
          { target: job.target, builder, reason: found.reason },
          `no build record for the ${signal.aborted ? 'cancelled' : 'failed'} target`,
        );
      const buildRef = found !== undefined && 'ref' in found ? found.ref : undefined;
      return {
        ok: false,
        exitCode: outcome.exitCode,
        error: outcome.errorTail || `\`${outcome.command}\` exited ${outcome.exitCode ?? 'without a code'}`,
        buildRef,
      };
    },
  };
}

/** Feeds a target's status stream into the run's digests as it is written (status-<target>.jsonl). */
function toStatusDigest(
  digests: FileDigests | undefined,
  target: string,
): ((bytes: Uint8Array) => void) | undefined {
  if (digests === undefined) return undefined;
  const digest = digests.open(`status-${target}.jsonl`);
  return (bytes) => digest.update(bytes);
}
