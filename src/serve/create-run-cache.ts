import { Worker } from 'node:worker_threads';
import type { Clock } from '../shared/clock.js';
import type { RegenReply, RegenRequest } from './regen-protocol.js';

// Per-run snapshots of data.json and the page. A poll gets the current snapshot at once; if it is older than
// `refreshMs`, a refresh is queued in the background worker (one at a time per run). Only the very first request
// of a run waits, because there is nothing to serve yet.

export interface RunSnapshot {
  body: Buffer;
  etag: string;
  html: Buffer;
  live: boolean;
  builtAtMs: number;
  error: string | undefined;
}

export interface RunCache {
  get(dir: string): Promise<RunSnapshot>;
  close(): Promise<void>;
}

/** From dist the worker is plain JS; from source (tsx, vitest) it is loaded through tsx's loader. */
function createWorker(): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  if (!fromSource) return new Worker(new URL('./regen-worker.js', import.meta.url));
  const workerUrl = new URL('./regen-worker.ts', import.meta.url).href;
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(api)}).then((m) => m.tsImport(${JSON.stringify(workerUrl)}, ${JSON.stringify(import.meta.url)}));`;
  return new Worker(code, { eval: true });
}

interface WorkerLink {
  request(dir: string, haveSnapshot: boolean): Promise<RegenReply>;
  close(): Promise<void>;
}

/** One worker, restarted if it dies; a request it never answers fails after `timeoutMs`. */
function createWorkerLink(timeoutMs: number): WorkerLink {
  let worker: Worker | undefined;
  const pending = new Map<number, (reply: RegenReply) => void>();
  let nextId = 1;
  const failAll = (message: string): void => {
    for (const [id, resolve] of pending) resolve({ id, kind: 'error', message });
    pending.clear();
    worker = undefined;
  };
  const ensure = (): Worker => {
    if (worker) return worker;
    const created = createWorker();
    created.unref();
    created.on('message', (reply: RegenReply) => {
      pending.get(reply.id)?.(reply);
      pending.delete(reply.id);
    });
    created.on('error', (error) => failAll(`regeneration worker failed: ${error.message}`));
    created.on('exit', (code) => failAll(`regeneration worker exited with code ${code}`));
    worker = created;
    return created;
  };
  return {
    request(dir, haveSnapshot) {
      const id = nextId++;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve({ id, kind: 'error', message: `regeneration of ${dir} took longer than ${timeoutMs} ms` });
        }, timeoutMs);
        timer.unref();
        pending.set(id, (reply) => {
          clearTimeout(timer);
          resolve(reply);
        });
        ensure().postMessage({ id, dir, haveSnapshot } satisfies RegenRequest);
      });
    },
    async close() {
      const current = worker;
      worker = undefined;
      if (current) {
        current.removeAllListeners('exit');
        await current.terminate();
      }
    },
  };
}

export function createRunCache({ refreshMs, clock, timeoutMs = 120_000 }: { refreshMs: number; clock: Clock; timeoutMs?: number }): RunCache {
  const link = createWorkerLink(timeoutMs);
  const snapshots = new Map<string, RunSnapshot>();
  const inFlight = new Map<string, Promise<RunSnapshot>>();

  function refresh(dir: string): Promise<RunSnapshot> {
    const running = inFlight.get(dir);
    if (running) return running;
    const job = link.request(dir, snapshots.has(dir))
      .then((reply) => applyReply(dir, reply))
      .finally(() => inFlight.delete(dir));
    inFlight.set(dir, job);
    return job;
  }

  function applyReply(dir: string, reply: RegenReply): RunSnapshot {
    const previous = snapshots.get(dir);
    const now = clock.nowMs();
    let next: RunSnapshot;
    if (reply.kind === 'built') next = { body: Buffer.from(reply.body), etag: reply.etag, html: Buffer.from(reply.html), live: reply.live, builtAtMs: now, error: undefined };
    else if (previous) next = { ...previous, builtAtMs: now, error: reply.kind === 'error' ? reply.message : undefined };
    else throw new Error(reply.kind === 'error' ? reply.message : 'no snapshot');
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
