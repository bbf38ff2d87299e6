// The public API of import/: a run recorded elsewhere taken in under --root (`rocm-perf import`).
export { importRun } from './import-run.js';
