export { type BootstrapPlan, findBootstrapPlan, type ManifestExists, runBootstrap } from './bootstrap.js';
export {
  type Bake,
  createBuildxExecutor,
  dispatchQueues,
  type FindFailedBuild,
  toBuildEnv,
  toInterruptedOutcomes,
} from './dispatch-queues.js';
