export { toTargetOverrides } from './build-target-overrides.js';
export { loadRunContext, type LoadRunContextOptions, type RunContext } from './load-run-context.js';
export { acquireRunLock, type RunLock } from './run-lock.js';
export { toUploadRefs } from './to-upload-refs.js';
