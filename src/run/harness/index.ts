export { type HarnessEffects, type HarnessResult, runHarness } from './run-harness.js';
