// The public API of run/sampling/: the node_exporter sampler on a worker thread and the step-usage sampler.
export { sampleOnThread } from './sample-on-thread.js';
export { startSampleSource } from './start-sample-source.js';
export { startStepUsage } from './start-step-usage.js';
export {
  type CreateStepUsageSamplerOptions,
  type StepUsageSampler,
  createStepUsageSampler,
} from './step-usage-sampler.js';
