// Why each target missed the cache and what each miss cost (docs/explain.md). The renderers are imported from
// render-why.ts by the views that show them (report.md, the page, diff).
export { explainRunDir } from './explain-run-dir.js';
export { readProvenanceFile } from './read-run-evidence.js';
export { fromSlsaV1 } from './parse-provenance.js';
