// The Zot-logging registry proxy as a process of its own (start-fleet.ts runs it at a raised priority), so its
// timestamps — the box's upload truth — never wait on the test runner's event loop or on the nodes' builds.
// Argument: a JSON file of StartZotProxyOptions. SIGTERM flushes the logs and exits.
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { startZotProxy, type StartZotProxyOptions } from './zot-proxy.js';

setPriority(-15);

const options = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as StartZotProxyOptions;
const proxy = await startZotProxy(options);
process.once('SIGTERM', () => {
  void proxy.stop().then(() => process.exit(0));
});
