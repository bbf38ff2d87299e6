// The public API of export/: the Perfetto (Chrome JSON trace) export, its schema and its structural check.
export {
  buildPerfettoTrace,
  sortTraceEvents,
  COUNTER_SERIES,
  type BuildPerfettoTraceOptions,
  type PerfettoExport,
} from './build-perfetto-trace.js';
export { findTraceProblems, sortSlices } from './find-trace-problems.js';
export {
  PerfettoTraceSchema,
  TraceEventSchema,
  type PerfettoTrace,
  type TraceEvent,
  type CompleteEvent,
  type CounterEvent,
  type FlowStartEvent,
  type FlowEndEvent,
  type MetadataEvent,
} from './trace-event-schema.js';
