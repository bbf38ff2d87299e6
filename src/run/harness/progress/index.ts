export { createProgress, type Progress } from './progress.js';
