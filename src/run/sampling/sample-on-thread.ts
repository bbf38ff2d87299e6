import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../shared/start-worker-thread.js';
import type { CreateSamplerOptions, Sampler } from '../../collect/index.js';
import { InternalError } from '../../shared/errors.js';
import {
  SamplerThreadMessageSchema,
  type SamplerThreadInput,
  type SamplerThreadRequest,
} from './sampler-thread-protocol.js';

// The harness's node_exporter sampler runs on a worker thread. On the harness's own thread every process it
// spawns (bake, `buildx history`, ssh) blocks the event loop until the child has exec'd, which on a loaded
// machine took seconds: a 24-node run saw 41 stalls over 500 ms, 77 s in all, and every sample spacing over 2 s
// overlapped one (docs/fleet-in-a-box.md). On a thread of its own the sampler keeps its interval; the samples come
// back as messages and are written here, in order.

/**
 * The thread's heap, kept small: it holds one parsed page per node (the previous scrape, for rates), but parsing
 * 24 pages a second makes garbage that an unlimited heap lets pile up (a 24-node run: the harness's peak RSS rose
 * from about 210 to 294 MB with the thread's default heap).
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

function startWorker(input: SamplerThreadInput): Worker {
  return startWorkerThread(import.meta.url, 'sampler-thread-worker', {
    workerData: input,
    resourceLimits: RESOURCE_LIMITS,
  });
}

/** The same sampler as createSampler (same options, minus the test seams), hosted on a thread. */
export function sampleOnThread(options: CreateSamplerOptions): Sampler {
  const input: SamplerThreadInput = {
    nodes: options.nodes.map(({ name, url }) => ({ name, url })),
    sampleIntervalMs: options.sampleIntervalMs,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  let worker: Worker | undefined;
  let failure: Error | undefined;
  let stopped: Promise<string | undefined> | undefined;
  let resolveStopped: (error: string | undefined) => void = () => undefined;
  const fail = (error: Error) => {
    failure ??= error;
    resolveStopped(undefined);
  };
  return {
    start() {
      if (worker) return;
      worker = startWorker(input);
      stopped = new Promise((resolve) => (resolveStopped = resolve));
      worker.on('message', (raw: unknown) => {
        const message = SamplerThreadMessageSchema.safeParse(raw);
        if (!message.success) return fail(new InternalError(`sampler thread sent ${JSON.stringify(raw)}`));
        if (message.data.kind === 'stopped') return resolveStopped(message.data.error);
        // As createSampler does: after onSample failed, nothing more is passed to it; stop() rethrows the failure.
        if (failure) return;
        try {
          options.onSample(message.data.sample);
        } catch (error) {
          fail(error as Error);
        }
      });
      worker.on('error', (error) => fail(error));
      worker.on('exit', (code) =>
        fail(new InternalError(`sampler thread exited (${code}) before it was stopped`)),
      );
    },
    async stop() {
      const current = worker;
      if (!current || !stopped) return;
      current.postMessage({ kind: 'stop' } satisfies SamplerThreadRequest);
      const error = await stopped;
      current.removeAllListeners('exit');
      await current.terminate();
      worker = undefined;
      if (failure) throw failure;
      if (error !== undefined) throw new InternalError(`sampler thread: ${error}`);
    },
  };
}
