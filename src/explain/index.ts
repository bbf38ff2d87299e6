// Why each target missed the cache and what each miss cost (docs/explain.md).
export { explainRunDir, findComparedRun } from './explain-run-dir.js';
export { renderWhyMd, renderWhySentence, formatCause } from './render-why.js';
