import type { Logger } from '../../shared/logger.js';
import type { Config, SshTarget } from '../../config/index.js';
import type { ConnectRemoteHost, RemoteHost } from '../executors/index.js';
import { RemoteCommandError } from '../../shared/errors.js';
import {
  appendNewBytes,
  currentGeneration,
  startFollowedLog,
  type FollowedLog,
  type LogSource,
} from './follow-log.js';
import { toFallbackSlice, writeLogSlice, type LogSlice } from './write-log-slice.js';
import type { FileDigests } from '../../shared/file-digests.js';
import { errorMessage } from '../../shared/error-message.js';

// The cache logs live on the store host. At start, note each log's size, inode and first line; during the run,
// append the new bytes into the run dir (a run in flight already has cache data); at the end, replace each with
// one authoritative slice: exactly the bytes written between the start and the end. A log rotated during the run
// (copytruncate or rename + create, compressed or not) is followed into its rotated copy, found by its first line:
// the slice is a chain of generations (docs/harness.md, "Cache logs").

export type { LogSource } from './follow-log.js';
/** The cache logs fleet.yaml names, each with its file name in the run dir. */
export function toLogSources({ registry, sccache }: Pick<Config, 'registry' | 'sccache'>): LogSource[] {
  const sources: LogSource[] = [];
  if (sccache.log) sources.push({ kind: 'sccache', file: 'sccache.log', ...sccache.log });
  // Always zot.jsonl (the report's name for the registry stream); run.json's registryLogFormat says which parser.
  if (registry.log) sources.push({ kind: 'registry', file: 'zot.jsonl', ...registry.log });
  return sources;
}

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
  /** A failed run-dir write goes to the run-dir guard; true when it was a disk failure (no more writes then). */
  onWriteError?: (file: string, error: unknown) => boolean;
  clock?: { nowMs(): number };
  /** Waits between attempts at the start and at the end (tests pass one that returns at once). */
  wait?: (ms: number) => Promise<void>;
  /** Each slice's size and SHA-256 as it is written (run.json `files`). */
  digests?: FileDigests | undefined;
}

/** Waits between reconnection attempts to a log host that dropped: 5 s, doubling to 60 s. */
const RECONNECT_BACKOFF_MS = { first: 5_000, max: 60_000 } as const;
/** At the end, a lost log host is tried this many times (1 s, 2 s, 4 s apart) before the run-dir copy stands. */
const FINAL_RECONNECT_TRIES = 4;
/**
 * At the start, a log host that does not answer is tried this many times (1 s, 2 s, … 16 s apart, about a minute)
 * before the capture gives up: no target is dispatched until the capture has started, so waiting loses no bytes.
 */
const START_TRIES = 7;

interface HostLink {
  host: Promise<RemoteHost> | undefined;
  /** When the link was found broken; undefined while it works. */
  lostAtMs: number | undefined;
  failedPolls: number;
  nextTryAtMs: number;
  backoffMs: number;
  lastError: string;
  /** One line per outage, for run.json's warnings. */
  outages: string[];
}

const clockOf = (ms: number) => new Date(ms).toISOString().slice(11, 19);

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

export function createLogCapture({
  sources,
  runDir,
  connect,
  logger,
  onWriteError,
  clock = { nowMs: () => Date.now() },
  wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  digests,
}: CreateLogCaptureOptions): LogCapture {
  const links = new Map<string, HostLink>();
  const states: FollowedLog[] = [];
  let diskFailed = false;
  let pendingPoll: Promise<void> | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };
  const linkFor = (ssh: SshTarget): HostLink => {
    const key = hostKey(ssh);
    let link = links.get(key);
    if (!link) {
      link = {
        host: undefined,
        lostAtMs: undefined,
        failedPolls: 0,
        nextTryAtMs: 0,
        backoffMs: 0,
        lastError: '',
        outages: [],
      };
      links.set(key, link);
    }
    return link;
  };
  const hostFor = (ssh: SshTarget): Promise<RemoteHost> => {
    const link = linkFor(ssh);
    link.host ??= connect(ssh);
    return link.host;
  };
  /** A broken link: close it; the next attempt reconnects, after a back-off. */
  const markLost = (ssh: SshTarget, error: unknown) => {
    const link = linkFor(ssh);
    const nowMs = clock.nowMs();
    void link.host?.then((host) => host.close()).catch(() => undefined);
    link.host = undefined;
    link.failedPolls += 1;
    link.lastError = errorMessage(error);
    if (link.lostAtMs === undefined) {
      link.lostAtMs = nowMs;
      link.backoffMs = RECONNECT_BACKOFF_MS.first;
      logger.warn({ host: ssh.host, err: error }, 'log host unreachable; reconnecting with back-off');
    } else link.backoffMs = Math.min(link.backoffMs * 2, RECONNECT_BACKOFF_MS.max);
    link.nextTryAtMs = nowMs + link.backoffMs;
  };
  const markBack = (ssh: SshTarget, host: RemoteHost) => {
    const link = linkFor(ssh);
    if (link.lostAtMs === undefined) return;
    const outage = `log host ${host.label} was unreachable ${clockOf(link.lostAtMs)}–${clockOf(clock.nowMs())} UTC (${link.failedPolls} failed attempts: ${link.lastError}); reconnected, and the final slice covers the outage`;
    link.outages.push(outage);
    logger.info({ host: host.label }, 'log host reachable again');
    link.lostAtMs = undefined;
    link.failedPolls = 0;
  };
  /** The followed log's host, reconnected when the link dropped and its back-off has passed; undefined while waiting. */
  const reachable = async (state: FollowedLog, force = false): Promise<boolean> => {
    const link = linkFor(state.source.ssh);
    if (link.host === undefined && !force && clock.nowMs() < link.nextTryAtMs) return false;
    try {
      state.host = await hostFor(state.source.ssh);
      markBack(state.source.ssh, state.host);
      return true;
    } catch (error) {
      markLost(state.source.ssh, error);
      return false;
    }
  };
  const reachableAtEnd = async (state: FollowedLog): Promise<boolean> => {
    for (let attempt = 0; attempt < FINAL_RECONNECT_TRIES; attempt += 1) {
      if (await reachable(state, true)) return true;
      await wait(1000 * 2 ** attempt);
    }
    return false;
  };
  /** A log host down at the start (an sshd restarting, a link not up yet) is waited for, with a back-off. */
  const startOne = async (source: LogSource): Promise<FollowedLog> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const host = await hostFor(source.ssh);
        const state = await startFollowedLog(source, host, runDir);
        const link = linkFor(source.ssh);
        if (link.lostAtMs !== undefined) {
          link.outages.push(
            `log host ${host.label} was unreachable at the start of the capture, ${clockOf(link.lostAtMs)}–${clockOf(clock.nowMs())} UTC (${link.failedPolls} failed attempts: ${link.lastError}); the capture started before any target was dispatched`,
          );
          link.lostAtMs = undefined;
          link.failedPolls = 0;
        }
        return state;
      } catch (error) {
        if (!isLinkFailure(error) || attempt >= START_TRIES) throw error;
        markLost(source.ssh, error);
        logger.warn(
          { host: source.ssh.host, log: source.path, attempt, err: error },
          'log host did not answer at the start of the capture; trying again',
        );
        await wait(1000 * 2 ** (attempt - 1));
      }
    }
  };

  return {
    start: () =>
      serial(async () => {
        for (const source of sources) {
          const state = await startOne(source);
          states.push(state);
          const { startOffset } = currentGeneration(state);
          logger.info({ log: source.path, host: state.host.label, startOffset }, 'log capture started');
        }
      }),
    // At most one poll waits behind the one running: a poll slower than the timer (a fast-growing log over a slow
    // link) must not queue up polls without bound, or stop() waits behind all of them while the log keeps growing.
    poll: () =>
      (pendingPoll ??= serial(async () => {
        pendingPoll = undefined;
        if (diskFailed) return;
        for (const state of states) {
          if (!(await reachable(state))) continue;
          await appendNewBytes(state, logger).catch((error: unknown) => {
            if (onWriteError?.(state.localPath, error) === true) {
              diskFailed = true;
              return;
            }
            if (error instanceof RemoteCommandError || isLinkFailure(error))
              markLost(state.source.ssh, error);
            logger.warn(
              { log: state.source.path, err: error },
              'log append failed; the final slice will cover it',
            );
          });
        }
      })),
    stop: () =>
      serial(async () => {
        const slices: LogSlice[] = [];
        for (const state of states) {
          const notes = linkFor(state.source.ssh).outages;
          if (diskFailed) {
            slices.push(toFallbackSlice(state, new Error('the run dir is not writable')));
            continue;
          }
          if (!(await reachableAtEnd(state))) {
            const link = linkFor(state.source.ssh);
            slices.push(
              toFallbackSlice(
                state,
                new Error(
                  `log host unreachable since ${clockOf(link.lostAtMs ?? clock.nowMs())} UTC: ${link.lastError}`,
                ),
              ),
            );
            continue;
          }
          const slice = await writeLogSlice(state, logger, digests).catch((error: unknown) =>
            toFallbackSlice(state, error),
          );
          slices.push(notes.length > 0 ? { ...slice, outages: [...notes] } : slice);
        }
        for (const link of links.values()) (await link.host?.catch(() => undefined))?.close();
        return slices;
      }),
  };
}

/** The link, not the log, failed: a connection error, or an ssh command that ended without an exit code (or caused by one). */
function isLinkFailure(error: unknown): boolean {
  for (let cause = error, depth = 0; cause !== undefined && depth < 5; depth += 1) {
    if (isConnectionError(cause)) return true;
    if (cause instanceof RemoteCommandError && cause.details.exitCode === undefined) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** An error that means the ssh link, not the command, failed (ssh2 and socket errors carry a level or a code). */
function isConnectionError(error: unknown): boolean {
  const { level, code } = (error ?? {}) as { level?: unknown; code?: unknown };
  return (
    level !== undefined ||
    ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(String(code)) ||
    /not connected|no response|closed/i.test(String((error as Error)?.message))
  );
}
