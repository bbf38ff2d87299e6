export {
  cleanupAllSync,
  cleanupStaleLeftovers,
  registerResource,
  removeCgroupSync,
} from './cleanup-registry.js';
export type { Resource } from './cleanup-registry.js';
export { findFreePort } from './free-port.js';
export { startNginx, toTestSccacheConf } from './nginx.js';
export type { RunningNginx, StartNginxOptions } from './nginx.js';
export { startNodeExporter } from './node-exporter.js';
export type { RunningNodeExporter, StartNodeExporterOptions } from './node-exporter.js';
export {
  createPortProbe,
  isListeningBy,
  isTcpOpen,
  readTail,
  runCommand,
  sleep,
  startDaemon,
  startRestartableDaemon,
} from './process.js';
export type { DaemonProcess, RestartableDaemon, StartDaemonOptions } from './process.js';
export { startRegistry } from './registry.js';
export type { RunningRegistry, StartRegistryOptions } from './registry.js';
export { startSshd } from './sshd.js';
export type { RunningSshd, StartSshdOptions } from './sshd.js';
export { createTempDir } from './temp-dir.js';
export type { TempDir } from './temp-dir.js';
export { startPrometheus } from './prometheus.js';
export type { RunningPrometheus, StartPrometheusOptions } from './prometheus.js';
