import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LogSliceEntry } from '../artifacts/index.js';
import type { Logger } from '../shared/logger.js';
import {
  assembleLogSlice,
  findFirstDifference,
  findUnplacedFiles,
  type GenerationPiece,
  type LogGeneration,
  type RemoteFileRecord,
} from './log-rotation/index.js';
import {
  appendNewBytes,
  currentGeneration,
  findRotatedCopy,
  logName,
  readAppended,
  type FollowedLog,
} from './follow-log.js';
import { runListLogFiles, runRemoteRange } from './remote-log-files.js';

// The end of a followed log: one last poll, then every generation read again (the log itself by range, each
// rotated one from its copy), assembled into the authoritative slice and written atomically (tmp + rename).

/** `warning` says what the slice is missing (bytes, which file); `segments` where each piece came from. */
export type LogSlice = LogSliceEntry;

/** One generation's piece of the final slice: the log itself read by range, or its rotated copy. */
async function readPiece(
  state: FollowedLog,
  generation: LogGeneration,
  records: readonly RemoteFileRecord[] | string,
): Promise<GenerationPiece> {
  const appended = await readAppended(state, generation);
  const isCurrent = generation === currentGeneration(state) && !state.absent;
  const piece = { generation, appended, isCurrent };
  try {
    if (isCurrent) {
      const { path: logPath } = state.source;
      const bytes = await runRemoteRange(
        state.host,
        logPath,
        generation.startOffset,
        generation.seenSizeBytes,
      );
      const difference = findFirstDifference(appended, bytes);
      if (difference === undefined) return { ...piece, remote: { path: logPath, bytes } };
      return {
        ...piece,
        missing: `differs from the live copy at offset ${generation.startOffset + difference} (rewritten in place?)`,
      };
    }
    if (typeof records === 'string') return { ...piece, missing: `could not be looked for (${records})` };
    const found = await findRotatedCopy(state, generation, records, appended);
    if (typeof found === 'string') return { ...piece, missing: found };
    const remotePath = path.posix.join(path.posix.dirname(state.source.path), found.record.name);
    return { ...piece, remote: { path: remotePath, bytes: found.bytes } };
  } catch (error) {
    return { ...piece, missing: `could not be read (${(error as Error).message})` };
  }
}

/** Siblings with new first lines that no generation explains: a rotation between two polls. */
function describeUnplaced(state: FollowedLog, records: readonly RemoteFileRecord[]): string[] {
  const known = new Set(state.knownFingerprints);
  for (const generation of state.generations) if (generation.fingerprint) known.add(generation.fingerprint);
  return findUnplacedFiles({ records, knownFingerprints: known, logName: logName(state) }).map(
    (record) =>
      `${path.posix.join(path.posix.dirname(state.source.path), record.name)} (${record.sizeBytes} bytes on disk) holds lines written during the run that the slice does not place (two rotations between two polls?); they are not in the slice`,
  );
}

export async function writeLogSlice(state: FollowedLog, logger: Logger): Promise<LogSlice> {
  const { source, host } = state;
  await appendNewBytes(state, logger).catch((error: unknown) =>
    logger.warn(
      { log: source.path, err: error },
      'last log poll failed; the slice ends at the previous poll',
    ),
  );
  const records = await runListLogFiles(host, source.path, { siblings: true }).catch(
    (error: unknown) => (error as Error).message,
  );
  const pieces: GenerationPiece[] = [];
  for (const generation of state.generations) pieces.push(await readPiece(state, generation, records));
  const slice = assembleLogSlice({ logPath: source.path, pieces });
  const warnings = [
    ...slice.warnings,
    ...(typeof records === 'string' ? [] : describeUnplaced(state, records)),
  ];
  await writeFile(`${state.localPath}.tmp`, slice.chunks);
  await rename(`${state.localPath}.tmp`, state.localPath);
  const startOffset = state.generations[0]?.startOffset ?? 0;
  logger.info(
    { log: source.path, startOffset, endOffset: slice.endOffset, generations: state.generations.length },
    'log slice written',
  );
  return {
    kind: source.kind,
    file: source.file,
    host: host.label,
    remotePath: source.path,
    startOffset,
    endOffset: slice.endOffset,
    sizeBytes: slice.sizeBytes,
    ...(warnings.length > 0 ? { warning: warnings.join('; ') } : {}),
    segments: slice.segments,
  };
}

/** When the final slice cannot be written at all: keep the live copy as it is and say so. */
export function toFallbackSlice(state: FollowedLog, error: unknown): LogSlice {
  const generation = currentGeneration(state);
  return {
    kind: state.source.kind,
    file: state.source.file,
    host: state.host.label,
    remotePath: state.source.path,
    startOffset: state.generations[0]?.startOffset ?? 0,
    endOffset: generation.appendedOffset,
    sizeBytes: state.localBytes,
    warning: `final slice of ${state.source.path} failed (${(error as Error).message}); kept the ${state.localBytes} bytes appended during the run`,
  };
}
