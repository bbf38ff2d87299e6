// The run artifacts: schemas and types of what one command writes for another (run.json, plan.json, data.json,
// samples.jsonl, artifacts.txt) and the stream stats every reader returns. A leaf: every layer may import it.
export * from './artifacts-file.js';
export * from './data-file.js';
export * from './lane.js';
export * from './plan-file.js';
export * from './run-file.js';
export * from './samples.js';
export * from './strategy-names.js';
export * from './stream-stats.js';
export * from './sample-table.js';
export * from './registry-sizes-file.js';
export * from './explain-file.js';
export * from './step-usage-file.js';
export * from './run-index-file.js';
export * from './run-dir-files.js';
export * from './site-manifest-file.js';
