// Spins a worker thread for a wall-clock duration, so the node's node_exporter sees real CPU load while the main
// thread keeps doing HTTP. `dutyCycle` < 1 spins only that fraction of every 100 ms slice.
import { Worker } from 'node:worker_threads';

const burnerSource = `
const { parentPort } = require('node:worker_threads');
const pause = new Int32Array(new SharedArrayBuffer(4));
parentPort.on('message', ({ id, ms, dutyCycle }) => {
  const end = Date.now() + ms;
  let x = 0;
  while (Date.now() < end) {
    const sliceEnd = Math.min(end, Date.now() + 100 * dutyCycle);
    while (Date.now() < sliceEnd) x = (x * 1103515245 + 12345) % 2147483648;
    const rest = Math.min(end - Date.now(), 100 * (1 - dutyCycle));
    if (rest > 0) Atomics.wait(pause, 0, 0, rest);
  }
  parentPort.postMessage({ id, x });
});
`;

export interface CpuBurner {
  burn: (ms: number) => Promise<void>;
  close: () => Promise<void>;
}

/** The worker thread starts on the first burn: a bake that only hits caches never pays for it. */
export function createCpuBurner(dutyCycle: number): CpuBurner {
  let worker: Worker | undefined;
  const waiting = new Map<number, () => void>();
  let nextId = 1;
  const start = (): Worker => {
    const started = new Worker(burnerSource, { eval: true });
    started.on('message', (message: { id: number }) => {
      waiting.get(message.id)?.();
      waiting.delete(message.id);
    });
    return started;
  };
  return {
    burn: (ms) =>
      new Promise<void>((resolve) => {
        if (ms <= 0) return resolve();
        const id = nextId++;
        waiting.set(id, resolve);
        worker ??= start();
        worker.postMessage({ id, ms, dutyCycle });
      }),
    close: async () => {
      await worker?.terminate();
    },
  };
}
