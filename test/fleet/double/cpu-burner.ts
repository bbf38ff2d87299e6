// Burns CPU *work* on a worker thread: it spins until the thread's own CPU time (/proc/thread-self/schedstat, ns)
// has grown by the requested milliseconds. The thread joins its node's work cgroup (the CPU quota) and, per burn,
// the cpuacct group the work is counted in (compile steps, or export compression), by writing its tid to their
// `tasks` files (opened before `ip netns exec` hid /sys/fs/cgroup). So how long a burn takes in wall time is up to
// the node's quota — a node with half the quota compiles at half the rate — and the node's counters see the work.
import { Worker } from 'node:worker_threads';

const burnerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync, readlinkSync, writeSync } = require('node:fs');
const tid = readlinkSync('/proc/thread-self').split('/').pop();
const fds = workerData.fds;
if (fds) writeSync(fds.quota, tid);
let account;
const cpuMs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
parentPort.on('message', ({ id, ms, kind }) => {
  if (fds && account !== kind) writeSync(fds[kind], tid);
  account = kind;
  const end = cpuMs() + ms;
  let x = 0;
  while (cpuMs() < end) for (let i = 0; i < 20000; i++) x = (x * 1103515245 + 12345) % 2147483648;
  parentPort.postMessage({ id, x });
});
`;

type BurnKind = 'compile' | 'export';

export interface CpuBurner {
  /** Spends `cpuMs` of CPU time, counted as `kind`; resolves when done. Burns run one after another (one thread). */
  burn: (cpuMs: number, kind?: BurnKind) => Promise<void>;
  close: () => Promise<void>;
}

/** The fds of the node's work cgroups' `tasks` files: the quota, and the cpuacct group per kind. */
export type WorkTaskFds = Readonly<Record<'quota' | BurnKind, number>>;

/** The worker thread starts on the first burn: a bake that only hits caches never pays for it. */
export function createCpuBurner(fds?: WorkTaskFds): CpuBurner {
  let worker: Worker | undefined;
  const waiting = new Map<number, () => void>();
  let nextId = 1;
  const start = (): Worker => {
    const started = new Worker(burnerSource, { eval: true, workerData: { fds } });
    started.on('message', (message: { id: number }) => {
      waiting.get(message.id)?.();
      waiting.delete(message.id);
    });
    return started;
  };
  return {
    burn: (cpuMs, kind = 'compile') =>
      new Promise<void>((resolve) => {
        if (cpuMs <= 0) return resolve();
        const id = nextId++;
        waiting.set(id, resolve);
        worker ??= start();
        worker.postMessage({ id, ms: cpuMs, kind });
      }),
    close: async () => {
      await worker?.terminate();
    },
  };
}
