export { type FinalizedRun, finalizeRun } from './finalize-run.js';
