import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LogSliceEntry } from '../../artifacts/index.js';
import type { SshTarget } from '../../config/index.js';
import { LogCaptureError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { RemoteHost } from '../executors/index.js';
import {
  createGeneration,
  detectRotation,
  findRotatedFiles,
  type LogGeneration,
  type RemoteFileRecord,
} from './log-rotation/index.js';
import { compareRunDirCopy, type CopyMatch } from './compare-run-dir-copy.js';
import { runListLogFiles, runRemoteRange } from './remote-log-files.js';
import { errorMessage } from '../../shared/error-message.js';

// Following one remote log during a run: each poll notices a rotation (log-rotation/detect-rotation.ts), catches the
// rotated generation up from its copy beside the log, then appends the new bytes of the file now at the log's path.

/** The most one ssh command of a poll reads: what a poll holds in memory at once. */
const APPEND_RANGE_BYTES = 16 * 1_048_576;

export interface LogSource {
  kind: LogSliceEntry['kind'];
  /** File name in the run dir, e.g. `sccache.log`, `zot.jsonl`. */
  file: string;
  ssh: SshTarget;
  path: string;
}

/** One log being followed across its rotations. */
export interface FollowedLog {
  source: LogSource;
  host: RemoteHost;
  localPath: string;
  /** Every file the log was during the run; the last is the one being followed. */
  generations: LogGeneration[];
  /** The log's path is empty: renamed away and not re-created yet. */
  absent: boolean;
  /** Bytes in the run-dir copy. */
  localBytes: number;
  /** First lines of the log's siblings at the start: rotated before the run. */
  knownFingerprints: Set<string>;
}

export const logName = (state: FollowedLog) => path.posix.basename(state.source.path);
export const currentGeneration = (state: FollowedLog) => state.generations.at(-1) as LogGeneration;

async function appendLocal(state: FollowedLog, bytes: Buffer): Promise<void> {
  if (bytes.length === 0) return;
  await appendFile(state.localPath, bytes);
  state.localBytes += bytes.length;
}

export async function startFollowedLog(
  source: LogSource,
  host: RemoteHost,
  runDir: string,
): Promise<FollowedLog> {
  const records = await runListLogFiles(host, source.path, { siblings: true });
  const log = records.find((record) => record.name === path.posix.basename(source.path));
  if (!log)
    throw new LogCaptureError(
      source.path,
      `${host.label}: ${source.path} does not exist; check the log path in fleet.yaml (the nginx access_log or the registry's log file)`,
    );
  const localPath = path.join(runDir, source.file);
  await writeFile(localPath, '');
  const knownFingerprints = new Set(
    records.flatMap((record) => (record.fingerprint === undefined ? [] : [record.fingerprint])),
  );
  return {
    source,
    host,
    localPath,
    generations: [createGeneration({ index: 0, record: log, startOffset: log.sizeBytes, localOffset: 0 })],
    absent: false,
    localBytes: 0,
    knownFingerprints,
  };
}

export interface FoundCopy {
  record: RemoteFileRecord;
  match: CopyMatch;
}

/** The sibling holding a rotated generation: found by first line, and checked against the run-dir copy by digest. */
export async function findRotatedCopy(
  state: FollowedLog,
  generation: LogGeneration,
  records: readonly RemoteFileRecord[],
): Promise<FoundCopy | string> {
  const problems: string[] = [];
  const dir = path.posix.dirname(state.source.path);
  for (const record of findRotatedFiles({ records, generation, logName: logName(state) })) {
    const copy = { path: path.posix.join(dir, record.name), compression: record.compression };
    const compared = await compareRunDirCopy({
      host: state.host,
      localPath: state.localPath,
      generation,
      copy,
    }).catch((error: unknown) => void problems.push(errorMessage(error)));
    if (!compared) continue;
    if (!('differsAt' in compared)) return { record, match: compared };
    problems.push(
      `${record.name} has its first line but differs from the live copy at offset ${compared.differsAt}`,
    );
  }
  return problems.length > 0
    ? `has no rotated copy that is readable and matches the live copy (${problems.join('; ')})`
    : `was not found among the files beside it in ${dir} (deleted, or moved elsewhere by olddir?)`;
}

/** After a rotation: append what the rotated generation got since the last poll, from its rotated copy. */
async function catchUp(state: FollowedLog, generation: LogGeneration, logger: Logger): Promise<void> {
  const records = await runListLogFiles(state.host, state.source.path, { siblings: true });
  const found = await findRotatedCopy(state, generation, records);
  if (typeof found === 'string') {
    logger.warn(
      { log: state.source.path, generation: generation.index, problem: found },
      'rotated log not caught up; the final slice looks again',
    );
    return;
  }
  const { extra, lengthBytes } = found.match;
  if (extra.length > 0) {
    await appendLocal(state, extra);
    generation.appendedOffset += extra.length;
  }
  const end = generation.startOffset + lengthBytes;
  generation.seenSizeBytes = Math.max(generation.seenSizeBytes, end);
  logger.info(
    { log: state.source.path, rotatedTo: found.record.name, bytes: lengthBytes },
    'followed the log into its rotated copy',
  );
}

async function followRotation(
  state: FollowedLog,
  observed: RemoteFileRecord | undefined,
  reason: string,
  logger: Logger,
): Promise<void> {
  logger.info({ log: state.source.path, reason }, 'log rotated');
  // Also when the log is re-created after a gap: the writer may have written to the renamed file meanwhile.
  await catchUp(state, currentGeneration(state), logger).catch((error: unknown) =>
    logger.warn(
      { log: state.source.path, err: error },
      'rotated log not caught up; the final slice looks again',
    ),
  );
  state.absent = observed === undefined;
  if (observed)
    state.generations.push(
      createGeneration({
        index: state.generations.length,
        record: observed,
        startOffset: 0,
        localOffset: state.localBytes,
      }),
    );
}

/** One poll of one log: notice a rotation, then append the new bytes. */
export async function appendNewBytes(state: FollowedLog, logger: Logger): Promise<void> {
  const [observed] = await runListLogFiles(state.host, state.source.path, { siblings: false });
  const reason = state.absent
    ? observed && 'the file was re-created'
    : detectRotation(currentGeneration(state), observed);
  if (reason) await followRotation(state, observed, reason, logger);
  if (!observed) return;
  const generation = currentGeneration(state);
  generation.fingerprint ??= observed.fingerprint;
  generation.seenSizeBytes = Math.max(generation.seenSizeBytes, observed.sizeBytes);
  // In ranges of at most APPEND_RANGE_BYTES: after a long outage the log may have grown by hundreds of MB.
  while (generation.appendedOffset < observed.sizeBytes) {
    const to = Math.min(observed.sizeBytes, generation.appendedOffset + APPEND_RANGE_BYTES);
    const bytes = await runRemoteRange(state.host, state.source.path, generation.appendedOffset, to);
    if (bytes.length === 0) return;
    await appendLocal(state, bytes);
    generation.appendedOffset += bytes.length;
  }
}
