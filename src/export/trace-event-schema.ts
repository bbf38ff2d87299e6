import { z } from 'zod';

// The subset of the Trace Event Format (Chrome's JSON trace, which ui.perfetto.dev imports) that `export
// --perfetto` emits, one schema per phase, with the stricter rules Perfetto's importer needs for clean tracks:
// numeric pid/tid/id, timestamps and durations in integer µs ≥ 0, and counters with exactly one numeric series.

const Id = z.number().int().min(0);
const Micros = z.number().int().min(0).describe('microseconds from the start of the trace');
const ArgValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);

const MetadataEventSchema = z.discriminatedUnion('name', [
  z.strictObject({
    ph: z.literal('M'),
    name: z.literal('process_name'),
    pid: Id,
    tid: Id,
    args: z.strictObject({ name: z.string().min(1) }),
  }),
  z.strictObject({
    ph: z.literal('M'),
    name: z.literal('thread_name'),
    pid: Id,
    tid: Id,
    args: z.strictObject({ name: z.string().min(1) }),
  }),
  z.strictObject({
    ph: z.literal('M'),
    name: z.literal('process_sort_index'),
    pid: Id,
    tid: Id,
    args: z.strictObject({ sort_index: z.number().int() }),
  }),
  z.strictObject({
    ph: z.literal('M'),
    name: z.literal('thread_sort_index'),
    pid: Id,
    tid: Id,
    args: z.strictObject({ sort_index: z.number().int() }),
  }),
]);

const CompleteEventSchema = z.strictObject({
  ph: z.literal('X'),
  name: z.string().min(1),
  cat: z.string().min(1),
  pid: Id,
  tid: Id,
  ts: Micros,
  dur: Micros,
  args: z.record(z.string(), ArgValue),
});

const CounterEventSchema = z.strictObject({
  ph: z.literal('C'),
  name: z.string().min(1),
  pid: Id,
  tid: Id,
  ts: Micros,
  args: z.record(z.string(), z.number().finite()).refine((args) => Object.keys(args).length === 1, {
    message: 'a counter event carries exactly one series (one numeric arg)',
  }),
});

const FlowStartEventSchema = z.strictObject({
  ph: z.literal('s'),
  name: z.string().min(1),
  cat: z.string().min(1),
  id: Id,
  pid: Id,
  tid: Id,
  ts: Micros,
});
const FlowEndEventSchema = z.strictObject({
  ph: z.literal('f'),
  bp: z.literal('e'),
  name: z.string().min(1),
  cat: z.string().min(1),
  id: Id,
  pid: Id,
  tid: Id,
  ts: Micros,
});

const TraceEventSchema = z.union([
  MetadataEventSchema,
  CompleteEventSchema,
  CounterEventSchema,
  FlowStartEventSchema,
  FlowEndEventSchema,
]);

export const PerfettoTraceSchema = z.strictObject({
  traceEvents: z.array(TraceEventSchema),
  displayTimeUnit: z.literal('ms'),
  otherData: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
});

export type MetadataEvent = z.infer<typeof MetadataEventSchema>;
export type CompleteEvent = z.infer<typeof CompleteEventSchema>;
export type CounterEvent = z.infer<typeof CounterEventSchema>;
export type FlowStartEvent = z.infer<typeof FlowStartEventSchema>;
export type FlowEndEvent = z.infer<typeof FlowEndEventSchema>;
export type TraceEvent = z.infer<typeof TraceEventSchema>;
export type PerfettoTrace = z.infer<typeof PerfettoTraceSchema>;
