import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../../shared/error-message.js';
import { readRegistryLog } from './read-registry-log.js';
import type { RegistryThreadReply, RegistryThreadRequest } from './registry-thread-protocol.js';

// A large registry log read on a thread of its own (read-registry-log-on-thread.ts): `report` parses the run's
// other files meanwhile. Only the summary and the stats come back; no record is kept.

const port = parentPort!;
port.on('message', (request: RegistryThreadRequest) => {
  readRegistryLog({ ...request.options, keep: () => false }).then(
    ({ stats, summary }) => port.postMessage({ stats, summary } satisfies RegistryThreadReply),
    (error: unknown) => port.postMessage({ error: errorMessage(error) } satisfies RegistryThreadReply),
  );
});
