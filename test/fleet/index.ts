export { boxNodes, boxScenarios, boxTargets, defaultBoxScale, gfx1201Targets } from './box-scenario.js';
export type { BoxScale, BoxScenarioName } from './box-scenario.js';
export { createBoxFleet } from './create-box-fleet.js';
export type { BoxFleetFiles, CreateBoxFleetOptions } from './create-box-fleet.js';
export { assertFleetCanStart, findFleetBlocker, fleetTestCommand } from './fleet-prerequisites.js';
export { fleetStateEnvVar, readFleetState } from './fleet-state.js';
export type { FleetState } from './fleet-state.js';
export { cleanupStaleFleets } from './network.js';
export { cleanupStaleCgroups, readCpuUsageNs } from './node-cgroups.js';
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
