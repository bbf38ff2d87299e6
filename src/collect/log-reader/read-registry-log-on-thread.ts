import { lstat } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import {
  readRegistryLog,
  type ReadRegistryLogOptions,
  type ReadRegistryLogResult,
} from './read-registry-log.js';
import {
  RegistryThreadReplySchema,
  type RegistryThreadReply,
  type RegistryThreadRequest,
} from './registry-thread-protocol.js';

// The registry log of a finished run, summarised on a thread of its own when it is large, so `report` parses the
// run's other files meanwhile (a 300 MB zot.jsonl is most of such a report; docs/startup.md). A small log is read
// here: a thread costs some 50 ms to start. A thread that fails, or a read that fails on it, leaves the read to this
// thread, so a damaged log fails here, with the error it always had. Only the summary and stats come back: for
// readers that keep no record.

/** Logs at least this large are read on a thread. */
const THREAD_BYTES = 32 * 1024 * 1024;

/** Loaded on first use: every command that reads a run dir loads this file, few start the thread. */
async function startWorker(): Promise<Worker> {
  const { startWorkerThread } = await import('../../shared/start-worker-thread.js');
  return startWorkerThread(import.meta.url, 'registry-thread-worker');
}

async function readOnThread(options: Omit<ReadRegistryLogOptions, 'keep'>): Promise<RegistryThreadReply> {
  let worker: Worker;
  try {
    worker = await startWorker();
  } catch (error) {
    return { error: String(error) };
  }
  return new Promise((resolve) => {
    const done = (reply: RegistryThreadReply) => {
      resolve(reply);
      void worker.terminate();
    };
    worker.once('message', (message: unknown) => {
      const reply = RegistryThreadReplySchema.safeParse(message);
      done(
        reply.success
          ? reply.data
          : { error: `registry thread replied out of shape: ${reply.error.message}` },
      );
    });
    worker.once('error', (error) => done({ error: error.message }));
    worker.once('exit', (code) => done({ error: `registry thread exited ${code}` }));
    worker.postMessage({ options } satisfies RegistryThreadRequest);
  });
}

/**
 * readRegistryLog keeping no record: on a thread when the log is large, else (or when the thread fails) here.
 * `readOn` says where it was read.
 */
export async function readRegistrySummary(
  options: Omit<ReadRegistryLogOptions, 'keep'>,
  { threadBytes = THREAD_BYTES }: { threadBytes?: number } = {},
): Promise<ReadRegistryLogResult & { readOn: 'thread' | 'here' }> {
  const inPlace = async () => ({
    ...(await readRegistryLog({ ...options, keep: () => false })),
    readOn: 'here' as const,
  });
  const size = (await lstat(options.path).catch(() => undefined))?.size ?? 0;
  if (size < threadBytes) return inPlace();
  const reply = await readOnThread(options);
  if ('error' in reply) return inPlace();
  return { records: [], stats: reply.stats, summary: reply.summary, readOn: 'thread' };
}
