// The public API of export/: the Perfetto (Chrome JSON trace) export, its schema and its structural check.
export { buildPerfettoTrace } from './build-perfetto-trace.js';
export { findTraceProblems } from './find-trace-problems.js';
export { PerfettoTraceSchema } from './trace-event-schema.js';
