import { appendFile, open, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LogCaptureError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import type { SshTarget } from '../config/schema.js';
import type { LogSliceEntry } from '../artifacts/index.js';
import type { ConnectRemoteHost, RemoteHost } from './executors/remote-host.js';
import {
  assembleLogSlice,
  createGeneration,
  detectRotation,
  findFirstDifference,
  findRotatedFiles,
  findUnplacedFiles,
  type GenerationPiece,
  type LogGeneration,
  type RemoteFileRecord,
} from './log-rotation/index.js';
import { runListLogFiles, runReadRotatedFile, runRemoteRange } from './remote-log-files.js';

// The cache logs live on the store host. At start, note each log's size, inode and first line; during the run,
// append the new bytes into the run dir (a run in flight already has cache data); at the end, replace each with
// one authoritative slice: exactly the bytes written between the start and the end. A log rotated during the run
// (copytruncate or rename + create, compressed or not) is followed into its rotated copy, found by its first line:
// the slice is a chain of generations (docs/harness.md, "Cache logs").

export interface LogSource {
  kind: LogSliceEntry['kind'];
  /** File name in the run dir, e.g. `sccache.log`, `zot.jsonl`. */
  file: string;
  ssh: SshTarget;
  path: string;
}

/** `warning` says what the slice is missing (bytes, which file); `segments` where each piece came from. */
export type LogSlice = LogSliceEntry;

export interface LogCapture {
  start(): Promise<void>;
  /** Append what is new since the last poll (following a rotation). */
  poll(): Promise<void>;
  /** Final authoritative slices; the capture is closed afterwards. */
  stop(): Promise<LogSlice[]>;
}

export interface CreateLogCaptureOptions {
  sources: readonly LogSource[];
  runDir: string;
  connect: ConnectRemoteHost;
  logger: Logger;
}

interface SourceState {
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

const logName = (state: SourceState) => path.posix.basename(state.source.path);
const currentGeneration = (state: SourceState) => state.generations.at(-1) as LogGeneration;

function hostKey(ssh: SshTarget): string {
  return [
    ssh.user ?? '',
    ssh.host,
    ssh.port ?? 22,
    ssh.identity_file,
    ssh.known_hosts,
    ssh.host_key_checking,
  ].join('|');
}

/** The live copy of one generation: its bytes in the run-dir file. */
async function readAppended(state: SourceState, generation: LogGeneration): Promise<Buffer> {
  const length = generation.appendedOffset - generation.startOffset;
  if (length === 0) return Buffer.alloc(0);
  const handle = await open(state.localPath, 'r');
  try {
    const bytes = Buffer.alloc(length);
    const { bytesRead } = await handle.read(bytes, 0, length, generation.localOffset);
    return bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function appendLocal(state: SourceState, bytes: Buffer): Promise<void> {
  if (bytes.length === 0) return;
  await appendFile(state.localPath, bytes);
  state.localBytes += bytes.length;
}

async function startSource(source: LogSource, host: RemoteHost, runDir: string): Promise<SourceState> {
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

interface FoundCopy {
  record: RemoteFileRecord;
  bytes: Buffer;
}

/** The sibling holding a rotated generation: found by first line, and checked byte for byte against the live copy. */
async function findRotatedCopy(
  state: SourceState,
  generation: LogGeneration,
  records: readonly RemoteFileRecord[],
  appended: Buffer,
): Promise<FoundCopy | string> {
  const problems: string[] = [];
  for (const record of findRotatedFiles({ records, generation, logName: logName(state) })) {
    const bytes = await runReadRotatedFile(
      state.host,
      record,
      state.source.path,
      generation.startOffset,
    ).catch((error: unknown) => void problems.push((error as Error).message));
    if (!bytes) continue;
    const difference = findFirstDifference(appended, bytes);
    if (difference === undefined) return { record, bytes };
    problems.push(
      `${record.name} has its first line but differs from the live copy at offset ${generation.startOffset + difference}`,
    );
  }
  const dir = path.posix.dirname(state.source.path);
  return problems.length > 0
    ? `has no rotated copy that is readable and matches the live copy (${problems.join('; ')})`
    : `was not found among the files beside it in ${dir} (deleted, or moved elsewhere by olddir?)`;
}

/** After a rotation: append what the rotated generation got since the last poll, from its rotated copy. */
async function catchUp(state: SourceState, generation: LogGeneration, logger: Logger): Promise<void> {
  const records = await runListLogFiles(state.host, state.source.path, { siblings: true });
  const found = await findRotatedCopy(state, generation, records, await readAppended(state, generation));
  if (typeof found === 'string') {
    logger.warn(
      { log: state.source.path, generation: generation.index, problem: found },
      'rotated log not caught up; the final slice looks again',
    );
    return;
  }
  const end = generation.startOffset + found.bytes.length;
  if (end > generation.appendedOffset) {
    await appendLocal(state, found.bytes.subarray(generation.appendedOffset - generation.startOffset));
    generation.appendedOffset = end;
  }
  generation.seenSizeBytes = Math.max(generation.seenSizeBytes, end);
  logger.info(
    { log: state.source.path, rotatedTo: found.record.name, bytes: end - generation.startOffset },
    'followed the log into its rotated copy',
  );
}

async function followRotation(
  state: SourceState,
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
async function appendNew(state: SourceState, logger: Logger): Promise<void> {
  const [observed] = await runListLogFiles(state.host, state.source.path, { siblings: false });
  const reason = state.absent
    ? observed && 'the file was re-created'
    : detectRotation(currentGeneration(state), observed);
  if (reason) await followRotation(state, observed, reason, logger);
  if (!observed) return;
  const generation = currentGeneration(state);
  generation.fingerprint ??= observed.fingerprint;
  generation.seenSizeBytes = Math.max(generation.seenSizeBytes, observed.sizeBytes);
  if (observed.sizeBytes <= generation.appendedOffset) return;
  const bytes = await runRemoteRange(
    state.host,
    state.source.path,
    generation.appendedOffset,
    observed.sizeBytes,
  );
  await appendLocal(state, bytes);
  generation.appendedOffset += bytes.length;
}

/** One generation's piece of the final slice: the log itself read by range, or its rotated copy. */
async function readPiece(
  state: SourceState,
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
function describeUnplaced(state: SourceState, records: readonly RemoteFileRecord[]): string[] {
  const known = new Set(state.knownFingerprints);
  for (const generation of state.generations) if (generation.fingerprint) known.add(generation.fingerprint);
  return findUnplacedFiles({ records, knownFingerprints: known, logName: logName(state) }).map(
    (record) =>
      `${path.posix.join(path.posix.dirname(state.source.path), record.name)} (${record.sizeBytes} bytes on disk) holds lines written during the run that the slice does not place (two rotations between two polls?); they are not in the slice`,
  );
}

async function writeFinalSlice(state: SourceState, logger: Logger): Promise<LogSlice> {
  const { source, host } = state;
  await appendNew(state, logger).catch((error: unknown) =>
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
function toFallbackSlice(state: SourceState, error: unknown): LogSlice {
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

export function createLogCapture({ sources, runDir, connect, logger }: CreateLogCaptureOptions): LogCapture {
  const hosts = new Map<string, Promise<RemoteHost>>();
  const states: SourceState[] = [];
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };
  const hostFor = (ssh: SshTarget) => {
    const key = hostKey(ssh);
    if (!hosts.has(key)) hosts.set(key, connect(ssh));
    return hosts.get(key) as Promise<RemoteHost>;
  };

  return {
    start: () =>
      serial(async () => {
        for (const source of sources) {
          const state = await startSource(source, await hostFor(source.ssh), runDir);
          states.push(state);
          const { startOffset } = currentGeneration(state);
          logger.info({ log: source.path, host: state.host.label, startOffset }, 'log capture started');
        }
      }),
    poll: () =>
      serial(async () => {
        for (const state of states) {
          await appendNew(state, logger).catch((error: unknown) =>
            logger.warn(
              { log: state.source.path, err: error },
              'log append failed; the final slice will cover it',
            ),
          );
        }
      }),
    stop: () =>
      serial(async () => {
        const slices: LogSlice[] = [];
        for (const state of states)
          slices.push(
            await writeFinalSlice(state, logger).catch((error: unknown) => toFallbackSlice(state, error)),
          );
        for (const host of hosts.values()) (await host.catch(() => undefined))?.close();
        return slices;
      }),
  };
}
