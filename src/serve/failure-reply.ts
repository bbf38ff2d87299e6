import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { Logger } from '../shared/logger.js';
import { BrokenRunError } from './broken-run-error.js';
import type { Reply } from './conditional-reply.js';

// A failed request as viewers see it (a short reason at most) and as the log sees it (paths, messages, stacks).

export interface FailureLog {
  /** Logs `message` under `key` once, until the message for that key changes. */
  record(key: string, message: string): void;
}

/** A broken run polled every few seconds is logged once, not at each poll. */
export function createFailureLog(logger: Logger): FailureLog {
  const logged = new Map<string, string>();
  return {
    record(key, message) {
      if (logged.get(key) === message) return;
      if (logged.size > 10_000) logged.clear();
      logged.set(key, message);
      logger.error(`serve: ${key}: ${message}`);
    },
  };
}

export function toFailureReply(log: FailureLog, request: IncomingMessage, error: unknown): Reply {
  if (['ENOENT', 'EISDIR'].includes(String((error as NodeJS.ErrnoException).code)))
    return { status: 404, body: 'not found\n' };
  // A link or special file in a run dir (open-run-file.ts): refused, and answered like a file that is not there.
  if ((error as { code?: unknown }).code === 'ROCMPERF_RUN_FILE_REFUSED') {
    log.record(`${request.method ?? 'GET'} ${request.url ?? '/'}`, (error as Error).message);
    return { status: 404, body: 'not found\n' };
  }
  if (error instanceof BrokenRunError) {
    log.record(`run ${path.basename(error.dir)}`, error.message);
    return { status: 500, body: `this run cannot be shown: ${error.reason}\n` };
  }
  log.record(
    `${request.method ?? 'GET'} ${request.url ?? '/'}`,
    error instanceof Error ? (error.stack ?? error.message) : String(error),
  );
  return { status: 500, body: 'internal error: the server log has the details\n' };
}
