import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../shared/clock.js';
import { BrokenRunError } from './broken-run-error.js';
import type { RegenReply, RegenRequest } from './regen-protocol.js';

// Per-run snapshots of data.json and the page. A poll gets the current snapshot at once; if it is older than
// `refreshMs`, a refresh is queued in the background regeneration process (one at a time per run). Only the very first request
// of a run waits, because there is nothing to serve yet.

interface RunSnapshot {
  body: Buffer;
  bodyGzip: Buffer;
  etag: string;
  html: Buffer;
  inFlight: boolean;
  builtAtMs: number;
  /** The last refresh failed: a short reason for viewers and the details for the log; the snapshot is older. */
  error: RunBuildFailure | undefined;
}

interface RunBuildFailure {
  reason: string;
  message: string;
}

export interface RunCache {
  get(dir: string): Promise<RunSnapshot>;
  close(): Promise<void>;
}

/**
 * The regeneration process: a child at lower CPU priority (nice 10), so on a busy machine the parse and the model
 * build yield to the server answering polls. From dist it is plain JS; from source (tsx, vitest) it runs via tsx.
 */
function createRegenProcess(): ChildProcess {
  const fromSource = import.meta.url.endsWith('.ts');
  const file = fileURLToPath(
    new URL(fromSource ? './regen-worker.ts' : './regen-worker.js', import.meta.url),
  );
  const child = fork(file, [], {
    // --expose-gc: the worker collects after each rebuild (regen-worker.ts).
    execArgv: fromSource ? ['--expose-gc', '--import', 'tsx'] : ['--expose-gc'],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    if (child.pid !== undefined) setPriority(child.pid, 10);
  } catch {
    // Not allowed to renice: the child keeps the server's priority.
  }
  child.unref();
  child.channel?.unref();
  return child;
}

interface WorkerLink {
  request(dir: string, haveSnapshot: boolean): Promise<RegenReply>;
  close(): Promise<void>;
}

/** One regeneration process, restarted if it dies; a request it never answers fails after `timeoutMs`. */
function createWorkerLink(timeoutMs: number): WorkerLink {
  let child: ChildProcess | undefined;
  const pending = new Map<number, (reply: RegenReply) => void>();
  let nextId = 1;
  const failAll = (message: string): void => {
    for (const [id, resolve] of pending)
      resolve({ id, kind: 'error', reason: 'its report builder stopped', message });
    pending.clear();
    child = undefined;
  };
  const ensure = (): ChildProcess => {
    if (child) return child;
    const created = createRegenProcess();
    created.on('message', (reply: RegenReply) => {
      pending.get(reply.id)?.(reply);
      pending.delete(reply.id);
    });
    created.on('error', (error) => failAll(`regeneration process failed: ${error.message}`));
    created.on('exit', (code, signal) => failAll(`regeneration process exited (${signal ?? code})`));
    child = created;
    return created;
  };
  return {
    request(dir, haveSnapshot) {
      const id = nextId++;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve({
            id,
            kind: 'error',
            reason: 'its report took too long to build',
            message: `regeneration of ${dir} took longer than ${timeoutMs} ms`,
          });
        }, timeoutMs);
        timer.unref();
        pending.set(id, (reply) => {
          clearTimeout(timer);
          resolve(reply);
        });
        const regen = ensure();
        regen.channel?.ref();
        regen.send({ id, dir, haveSnapshot } satisfies RegenRequest, (error) => {
          if (error) failAll(`regeneration process unreachable: ${error.message}`);
        });
      }).finally(() => {
        if (pending.size === 0) child?.channel?.unref();
      }) as Promise<RegenReply>;
    },
    async close() {
      const current = child;
      child = undefined;
      if (!current || current.exitCode !== null) return;
      current.removeAllListeners('exit');
      const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
      current.kill('SIGTERM');
      await exited;
    },
  };
}

/** A Uint8Array from the IPC channel as a Buffer over the same memory (no copy). */
const wrapBytes = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export function createRunCache({
  refreshMs,
  clock,
  timeoutMs = 120_000,
}: {
  refreshMs: number;
  clock: Clock;
  timeoutMs?: number;
}): RunCache {
  const link = createWorkerLink(timeoutMs);
  const snapshots = new Map<string, RunSnapshot>();
  const inFlight = new Map<string, Promise<RunSnapshot>>();

  function refresh(dir: string): Promise<RunSnapshot> {
    const running = inFlight.get(dir);
    if (running) return running;
    const job = link
      .request(dir, snapshots.has(dir))
      .then((reply) => applyReply(dir, reply))
      .finally(() => inFlight.delete(dir));
    inFlight.set(dir, job);
    return job;
  }

  function applyReply(dir: string, reply: RegenReply): RunSnapshot {
    const previous = snapshots.get(dir);
    const now = clock.nowMs();
    let next: RunSnapshot;
    if (reply.kind === 'built')
      next = {
        body: wrapBytes(reply.body),
        bodyGzip: wrapBytes(reply.bodyGzip),
        etag: reply.etag,
        html: wrapBytes(reply.html),
        inFlight: reply.inFlight,
        builtAtMs: now,
        error: undefined,
      };
    else if (previous)
      next = {
        ...previous,
        builtAtMs: now,
        error: reply.kind === 'error' ? { reason: reply.reason, message: reply.message } : undefined,
      };
    else if (reply.kind === 'error')
      throw new BrokenRunError({ dir, reason: reply.reason, message: reply.message });
    else throw new BrokenRunError({ dir, reason: 'its report could not be built', message: 'no snapshot' });
    snapshots.set(dir, next);
    return next;
  }

  return {
    async get(dir) {
      const snapshot = snapshots.get(dir);
      if (!snapshot) return refresh(dir);
      if (clock.nowMs() - snapshot.builtAtMs >= refreshMs) refresh(dir).catch(() => undefined);
      return snapshot;
    },
    close: () => link.close(),
  };
}
