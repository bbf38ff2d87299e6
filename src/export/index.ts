// The public API of export/: the Perfetto (Chrome JSON trace) export, its schema and its structural check; the
// OTLP export (pure builder, its schema, the run reader and the send).
export { buildPerfettoTrace } from './build-perfetto-trace.js';
export { findTraceProblems } from './find-trace-problems.js';
export {
  PerfettoTraceSchema,
  type PerfettoTrace,
  type TraceEvent,
  type CompleteEvent,
  type FlowStartEvent,
  type FlowEndEvent,
} from './trace-event-schema.js';
export { buildOtlpTrace } from './build-otlp-trace.js';
export { OtlpTraceRequestSchema } from './otlp-trace-schema.js';
export { readOtlpInputs } from './read-otlp-inputs.js';
export { sendOtlpTrace, toOtlpTracesUrl } from './send-otlp-trace.js';
