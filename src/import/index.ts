export { importRun } from './import-run.js';
