export { addAdvice, adviseRunDir } from './advise-run-dir.js';
