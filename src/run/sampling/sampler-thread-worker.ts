import { parentPort, workerData } from 'node:worker_threads';
import { createSampler } from '../../collect/index.js';
import {
  SamplerThreadInputSchema,
  type SamplerThreadMessage,
  type SamplerThreadRequest,
} from './sampler-thread-protocol.js';
import { errorMessage } from '../../shared/error-message.js';

// The node_exporter sampler on a thread of its own (started by sample-on-thread.ts): its timers, scrapes and
// timeouts run on this thread's event loop, so a harness busy spawning processes does not delay them.

const port = parentPort!;
const post = (message: SamplerThreadMessage) => port.postMessage(message);
const input = SamplerThreadInputSchema.parse(workerData);
const sampler = createSampler({ ...input, onSample: (sample) => post({ kind: 'sample', sample }) });
sampler.start();
port.on('message', (request: SamplerThreadRequest) => {
  if (request.kind !== 'stop') return;
  sampler.stop().then(
    () => post({ kind: 'stopped' }),
    (error: unknown) => post({ kind: 'stopped', error: errorMessage(error) }),
  );
});
