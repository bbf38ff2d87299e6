import type { Logger } from '../shared/logger.js';
import type { SshTarget } from '../config/schema.js';
import type { ConnectRemoteHost, RemoteHost } from './executors/remote-host.js';
import {
  appendNewBytes,
  currentGeneration,
  startFollowedLog,
  type FollowedLog,
  type LogSource,
} from './follow-log.js';
import { toFallbackSlice, writeLogSlice, type LogSlice } from './write-log-slice.js';

// The cache logs live on the store host. At start, note each log's size, inode and first line; during the run,
// append the new bytes into the run dir (a run in flight already has cache data); at the end, replace each with
// one authoritative slice: exactly the bytes written between the start and the end. A log rotated during the run
// (copytruncate or rename + create, compressed or not) is followed into its rotated copy, found by its first line:
// the slice is a chain of generations (docs/harness.md, "Cache logs").

export type { LogSource } from './follow-log.js';
export type { LogSlice } from './write-log-slice.js';

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
  const states: FollowedLog[] = [];
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
          const state = await startFollowedLog(source, await hostFor(source.ssh), runDir);
          states.push(state);
          const { startOffset } = currentGeneration(state);
          logger.info({ log: source.path, host: state.host.label, startOffset }, 'log capture started');
        }
      }),
    poll: () =>
      serial(async () => {
        for (const state of states) {
          await appendNewBytes(state, logger).catch((error: unknown) =>
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
            await writeLogSlice(state, logger).catch((error: unknown) => toFallbackSlice(state, error)),
          );
        for (const host of hosts.values()) (await host.catch(() => undefined))?.close();
        return slices;
      }),
  };
}
