// The public API of run/harness/: the harness cold, warm and bench run (its rooms are imported through their own
// index.ts files, inside the harness).
export { type HarnessEffects, type HarnessResult, runHarness } from './run-harness.js';
