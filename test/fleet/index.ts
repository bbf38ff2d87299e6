export { boxTargets } from './box-scenario.js';
export { findFleetBlocker } from './fleet-prerequisites.js';
export { cleanupStaleFleets } from './network.js';
export { readCpuUsageNs } from './node-cgroups.js';
export {
  isManifestPut,
  isStoredWrite,
  isUploadRequest,
  readRegistryTruth,
  toRepository,
} from './registry-truth.js';
export type { RegistryTruthLine } from './registry-truth.js';
export { startFleet } from './start-fleet.js';
export type { FleetNodeHandle, RunningFleet, StartFleetOptions } from './start-fleet.js';
