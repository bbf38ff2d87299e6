export { createPreflightProbes } from './create-preflight-probes.js';
export { type PreflightProbes, runPreflight } from './preflight.js';
export { readBuilderIdentities } from './read-builder-identity.js';
