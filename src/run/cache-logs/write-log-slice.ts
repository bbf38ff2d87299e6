import type { FileDigestWriter, FileDigests } from '../../shared/file-digests.js';
import { open, rename } from 'node:fs/promises';
import path from 'node:path';
import type { LogSliceEntry } from '../../artifacts/index.js';
import type { Logger } from '../../shared/logger.js';
import {
  assembleLogSlice,
  findUnplacedFiles,
  type GenerationPiece,
  type LogGeneration,
  type RemoteFileRecord,
  type SlicePart,
} from './log-rotation/index.js';
import {
  appendNewBytes,
  currentGeneration,
  findRotatedCopy,
  logName,
  type FollowedLog,
} from './follow-log.js';
import { compareRunDirCopy } from './compare-run-dir-copy.js';
import { runListLogFiles } from './remote-log-files.js';
import { errorMessage } from '../../shared/error-message.js';

// The end of a followed log: one last poll, then every generation checked against the host's file (the log itself
// up to the size last seen, each rotated one in its copy) by block digests (compare-run-dir-copy.ts), assembled into
// the authoritative slice and written atomically (tmp + rename), streamed a block at a time: a 500 MB log is
// neither read over the link twice nor held in memory.

const COPY_BLOCK_BYTES = 1_048_576;

/** `warning` says what the slice is missing (bytes, which file); `segments` where each piece came from. */
export type LogSlice = LogSliceEntry;

/** One generation's piece of the final slice: the log itself up to the size last seen, or its rotated copy. */
async function readPiece(
  state: FollowedLog,
  generation: LogGeneration,
  records: readonly RemoteFileRecord[] | string,
): Promise<GenerationPiece> {
  const isCurrent = generation === currentGeneration(state) && !state.absent;
  const piece = { generation, isCurrent };
  try {
    if (isCurrent) {
      const copy = { path: state.source.path, endOffset: generation.seenSizeBytes };
      const compared = await compareRunDirCopy({
        host: state.host,
        localPath: state.localPath,
        generation,
        copy,
      });
      if ('differsAt' in compared)
        return {
          ...piece,
          missing: `differs from the live copy at offset ${compared.differsAt} (rewritten in place?)`,
        };
      return {
        ...piece,
        remote: { path: copy.path, lengthBytes: compared.lengthBytes, extra: compared.extra },
      };
    }
    if (typeof records === 'string') return { ...piece, missing: `could not be looked for (${records})` };
    const found = await findRotatedCopy(state, generation, records);
    if (typeof found === 'string') return { ...piece, missing: found };
    const { copy, lengthBytes, extra } = found.match;
    return { ...piece, remote: { path: copy.path, lengthBytes, extra } };
  } catch (error) {
    return { ...piece, missing: `could not be read (${errorMessage(error)})` };
  }
}

/** Writes the slice's parts into `target`: run-dir-copy ranges streamed from `runDirCopy`, a block at a time. */
async function writeSliceParts(
  runDirCopy: string,
  target: string,
  parts: readonly SlicePart[],
  digest?: FileDigestWriter,
): Promise<void> {
  const [source, output] = [await open(runDirCopy, 'r'), await open(target, 'w')];
  try {
    const buffer = Buffer.alloc(COPY_BLOCK_BYTES);
    for (const part of parts) {
      if (part.from === 'bytes') {
        await output.write(part.bytes);
        digest?.update(part.bytes);
        continue;
      }
      for (let done = 0; done < part.length;) {
        const want = Math.min(buffer.length, part.length - done);
        const { bytesRead } = await source.read(buffer, 0, want, part.offset + done);
        if (bytesRead === 0) throw new Error(`${runDirCopy} ends before byte ${part.offset + part.length}`);
        await output.write(buffer.subarray(0, bytesRead));
        digest?.update(buffer.subarray(0, bytesRead));
        done += bytesRead;
      }
    }
  } finally {
    await Promise.all([source.close(), output.close()]);
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

export async function writeLogSlice(
  state: FollowedLog,
  logger: Logger,
  digests?: FileDigests,
): Promise<LogSlice> {
  const { source, host } = state;
  await appendNewBytes(state, logger).catch((error: unknown) =>
    logger.warn(
      { log: source.path, err: error },
      'last log poll failed; the slice ends at the previous poll',
    ),
  );
  const records = await runListLogFiles(host, source.path, { siblings: true }).catch((error: unknown) =>
    errorMessage(error),
  );
  const pieces: GenerationPiece[] = [];
  for (const generation of state.generations) pieces.push(await readPiece(state, generation, records));
  const slice = assembleLogSlice({ logPath: source.path, pieces });
  const warnings = [
    ...slice.warnings,
    ...(typeof records === 'string' ? [] : describeUnplaced(state, records)),
  ];
  const digest = digests?.open(path.basename(state.localPath));
  await writeSliceParts(state.localPath, `${state.localPath}.tmp`, slice.parts, digest);
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

/** When the final slice cannot be written at all: keep the run-dir copy as it is and say so. */
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
    warning: `final slice of ${state.source.path} failed (${errorMessage(error)}); kept the ${state.localBytes} bytes appended during the run`,
  };
}
