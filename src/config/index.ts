// The public API of config/: fleet.yaml and target-costs read, checked and resolved (the loaders read files, never
// run a process), the schema's types, and the YAML reader with line numbers contracts shares.
export { renderFleetJsonSchema } from './fleet-json-schema.js';
export { formatIssues } from './format-issues.js';
export { loadConfig } from './load-config.js';
export {
  type LoadPlanConfigOptions,
  type PlanConfig,
  loadPlanConfig,
  readNamedFile,
} from './load-plan-config.js';
export { nameInputOrigins } from './name-origins.js';
export { type ParsedYaml, type YamlPath, parseYamlWithLines } from './parse-fleet-yaml.js';
export {
  type CostSpread,
  type ParsedTargetCosts,
  type TargetCost,
  parseTargetCosts,
  renderTargetCosts,
} from './parse-target-costs.js';
export { ARCH_PLACEHOLDER, type ConfigOverrides, validateConfig } from './resolve-config.js';
export {
  type BuildxSetting,
  type Config,
  type FleetNode,
  type HostKeyChecking,
  HostKeyCheckingSchema,
  type SshTarget,
} from './schema.js';
export { toEditedFleetYaml } from './to-edited-fleet-yaml.js';
