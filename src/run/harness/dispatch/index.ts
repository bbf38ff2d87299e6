export { type BootstrapPlan, findBootstrapPlan, type ManifestExists, runBootstrap } from './bootstrap.js';
export { toBuildxExecutorOptions, dispatchQueues, toInterruptedOutcomes } from './dispatch-queues.js';
