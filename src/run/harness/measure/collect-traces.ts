import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../../shared/logger.js';
import { toHistoryId, toTraceArgs, type runHistoryTrace, toBuildxCommand } from '../../executors/index.js';
import type { RunDirGuard } from '../record/index.js';
import { errorMessage } from '../../../shared/error-message.js';
import type { FileDigests } from '../../../shared/file-digests.js';
import { parseBuildkitTrace } from '../../../collect/index.js';

/** The trace IDs a trace's spans carry (none when it does not parse: the report says why). */
function readTraceIds(text: string, target: string): string[] {
  try {
    return parseBuildkitTrace(text, { source: `trace-${target}.json`, target }).extent.traceIds;
  } catch {
    return [];
  }
}

// After each target, its build record's trace goes to trace-<target>.json. Fetches run in the
// background (dependents do not wait for them); finalize awaits whatever is in flight.

export interface TraceCollector {
  collect(job: { target: string; builder: string; buildRef: string }): void;
  /** Waits for every fetch started so far; returns one warning per trace that could not be had. */
  settle(): Promise<string[]>;
}

export function createTraceCollector({
  runDir,
  fetchTrace,
  buildx,
  logger,
  guard,
  digests,
}: {
  runDir: string;
  /** Each saved trace's size, SHA-256 and trace IDs, for run.json `files`. */
  digests?: FileDigests | undefined;
  fetchTrace: typeof runHistoryTrace;
  /** The standalone buildx binary the run uses; undefined: `docker buildx`. */
  buildx?: string | undefined;
  logger: Logger;
  /** Failed writes go to the run-dir guard; once it has stopped the run, traces are left on the builders. */
  guard?: Pick<RunDirGuard, 'fail' | 'failure'>;
}): TraceCollector {
  const pending: Promise<string | undefined>[] = [];
  const fetchOne = async ({
    target,
    builder,
    buildRef,
  }: {
    target: string;
    builder: string;
    buildRef: string;
  }) => {
    const outcome = await fetchTrace({ builder, buildRef, buildx });
    if (!outcome.ok) {
      logger.warn(
        { target, buildRef, command: outcome.command, error: outcome.errorTail },
        'trace fetch failed',
      );
      return `no trace for ${target}: \`${outcome.command}\` failed: ${outcome.errorTail.split('\n').at(-1) ?? ''}`;
    }
    const file = path.join(runDir, `trace-${target}.json`);
    const keep = `the builder keeps it: \`${toBuildxCommand(buildx, toTraceArgs(builder, toHistoryId(buildRef))).command}\``;
    if (guard?.failure() !== undefined)
      return `no trace for ${target} saved (the run dir is not writable); ${keep}`;
    try {
      await writeFile(file, outcome.stdout);
    } catch (error) {
      if (guard?.fail(file, error) === true)
        return `no trace for ${target} saved (${(error as { code?: string }).code}); ${keep}`;
      throw error;
    }
    digests?.recordWhole(path.basename(file), outcome.stdout, {
      traceIds: readTraceIds(outcome.stdout, target),
    });
    logger.info({ target, buildRef, bytes: outcome.stdout.length }, 'trace saved');
    return undefined;
  };
  return {
    collect(job) {
      pending.push(
        fetchOne(job).catch((error: unknown) => `no trace for ${job.target}: ${errorMessage(error)}`),
      );
    },
    async settle() {
      const results = await Promise.all(pending);
      return results.filter((warning): warning is string => warning !== undefined);
    },
  };
}
