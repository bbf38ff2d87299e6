export { buildAdvice } from './build-advice.js';
export { readAdviseInput, type ReadAdviseInputOptions } from './read-advise-input.js';
export { addAdvice, adviseRunDir } from './advise-run-dir.js';
