// The public API of run/cache-logs/: the cache hosts' logs followed and sliced per build, for the harness.
export { type LogCapture, createLogCapture, toLogSources } from './capture-logs.js';
export { buildLogHostCheckCommand } from './remote-log-files.js';
export { writeRegistrySizes } from './write-registry-sizes.js';
