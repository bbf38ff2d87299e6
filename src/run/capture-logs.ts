import { appendFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../shared/logger.js';
import type { SshTarget } from '../config/schema.js';
import type { LogSliceEntry } from '../artifacts/index.js';
import { quoteShell, type ConnectRemoteHost, type RemoteHost } from './executors/remote-host.js';

// The cache logs live on the store host. At start, note each log's size; during the run, append
// the new bytes into the run dir (a run in flight already has cache data); at the end, replace each
// with one authoritative slice: exactly the bytes written between the start and end offsets.

export interface LogSource {
  kind: LogSliceEntry['kind'];
  /** File name in the run dir, e.g. `sccache.log`, `zot.jsonl`. */
  file: string;
  ssh: SshTarget;
  path: string;
}

/** `warning` is set when the log shrank (rotated or truncated) or could not be read at the end. */
export type LogSlice = LogSliceEntry;

export interface LogCapture {
  start(): Promise<void>;
  /** Append what is new since the last poll. */
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
  startOffset: number;
  appendedOffset: number;
  warning?: string;
}

export function buildSizeCommand(remotePath: string): string {
  return `wc -c < ${quoteShell(remotePath)}`;
}

/** Bytes [from, to) of a remote file. */
export function buildRangeCommand(remotePath: string, from: number, to: number): string {
  return `tail -c +${from + 1} ${quoteShell(remotePath)} | head -c ${Math.max(0, to - from)}`;
}

async function runRemoteSize(host: RemoteHost, remotePath: string): Promise<number> {
  const result = await host.run(buildSizeCommand(remotePath), { timeoutMs: 20_000 });
  const size = Number(result.stdout.toString('utf8').trim());
  if (result.exitCode !== 0 || !Number.isInteger(size)) {
    throw new Error(
      `${host.label}: cannot read the size of ${remotePath}: ${result.stderr.trim() || `exit ${result.exitCode}`}`,
    );
  }
  return size;
}

async function runRemoteRange(
  host: RemoteHost,
  remotePath: string,
  from: number,
  to: number,
): Promise<Buffer> {
  const result = await host.run(buildRangeCommand(remotePath, from, to), { timeoutMs: 300_000 });
  if (result.exitCode !== 0)
    throw new Error(
      `${host.label}: cannot read ${remotePath}: ${result.stderr.trim() || `exit ${result.exitCode}`}`,
    );
  return result.stdout;
}

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

  const appendNew = async (state: SourceState) => {
    const size = await runRemoteSize(state.host, state.source.path);
    if (size < state.appendedOffset) {
      state.warning = `${state.source.path} shrank from ${state.appendedOffset} to ${size} bytes during the run (rotated?); the slice starts at 0`;
      state.startOffset = 0;
      state.appendedOffset = 0;
      await writeFile(path.join(runDir, state.source.file), '');
    }
    if (size === state.appendedOffset) return;
    const bytes = await runRemoteRange(state.host, state.source.path, state.appendedOffset, size);
    await appendFile(path.join(runDir, state.source.file), bytes);
    state.appendedOffset += bytes.length;
  };

  return {
    start: () =>
      serial(async () => {
        for (const source of sources) {
          const host = await hostFor(source.ssh);
          const startOffset = await runRemoteSize(host, source.path);
          await writeFile(path.join(runDir, source.file), '');
          states.push({ source, host, startOffset, appendedOffset: startOffset });
          logger.info({ log: source.path, host: host.label, startOffset }, 'log capture started');
        }
      }),
    poll: () =>
      serial(async () => {
        for (const state of states) {
          await appendNew(state).catch((error: unknown) =>
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
        for (const state of states) {
          slices.push(
            await writeFinalSlice(state, runDir, logger).catch((error: unknown) => ({
              kind: state.source.kind,
              file: state.source.file,
              host: state.host.label,
              remotePath: state.source.path,
              startOffset: state.startOffset,
              endOffset: state.appendedOffset,
              sizeBytes: state.appendedOffset - state.startOffset,
              warning: `final slice of ${state.source.path} failed (${(error as Error).message}); kept the bytes appended during the run`,
            })),
          );
        }
        for (const host of hosts.values()) (await host.catch(() => undefined))?.close();
        return slices;
      }),
  };
}

async function writeFinalSlice(state: SourceState, runDir: string, logger: Logger): Promise<LogSlice> {
  const { source, host } = state;
  const target = path.join(runDir, source.file);
  let endOffset = await runRemoteSize(host, source.path);
  if (endOffset < state.startOffset) {
    state.warning = `${source.path} shrank below its start offset (rotated?); the slice holds the new file from 0`;
    state.startOffset = 0;
  }
  const bytes = await runRemoteRange(host, source.path, state.startOffset, endOffset);
  endOffset = state.startOffset + bytes.length;
  await writeFile(`${target}.tmp`, bytes);
  await rename(`${target}.tmp`, target);
  logger.info({ log: source.path, startOffset: state.startOffset, endOffset }, 'log slice written');
  return {
    kind: source.kind,
    file: source.file,
    host: host.label,
    remotePath: source.path,
    startOffset: state.startOffset,
    endOffset,
    sizeBytes: bytes.length,
    ...(state.warning ? { warning: state.warning } : {}),
  };
}
