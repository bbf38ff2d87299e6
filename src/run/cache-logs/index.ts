export { type LogCapture, createLogCapture, toLogSources } from './capture-logs.js';
export { buildLogHostCheckCommand } from './remote-log-files.js';
export { writeRegistrySizes } from './write-registry-sizes.js';
