// Why each target missed the cache and what each miss cost (docs/explain.md), and the report writer that explains a
// run before it writes data.json (write-run-report.ts: it composes report/ and explain/, so it lives on the side
// that imports both). The renderers of why are report/'s (report/render-why.ts), beside the views that show them.
export { explainRunDir } from './explain-run-dir.js';
export { readProvenanceFile } from './read-run-evidence.js';
export { fromSlsaV1 } from './parse-provenance.js';
export { writeRunReport } from './write-run-report.js';
