import { z } from 'zod';

// What `export --otlp` sends: an OTLP/HTTP ExportTraceServiceRequest in the protobuf JSON encoding
// (opentelemetry-proto, `opentelemetry/proto/collector/trace/v1/trace_service.proto`): lowerCamelCase keys, trace
// and span ids as lowercase hex (not base64, the OTLP/JSON exception), 64-bit integers as decimal strings, enums
// as integers. Only the fields rocm-perf fills; docs/otlp.md says what each span carries.

const Hex = (bytes: number) =>
  z
    .string()
    .regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`))
    .refine((id) => !/^0+$/.test(id), 'an all-zero id is invalid in OTLP');
const Nanos = z.string().regex(/^\d+$/).describe('unix nanoseconds, a decimal string (fixed64)');

type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: AnyValue[] } };

const AnyValueSchema: z.ZodType<AnyValue> = z.lazy(() =>
  z.union([
    z.strictObject({ stringValue: z.string() }),
    z.strictObject({ boolValue: z.boolean() }),
    z.strictObject({ intValue: z.string().regex(/^-?\d+$/) }),
    z.strictObject({ doubleValue: z.number().finite() }),
    z.strictObject({ arrayValue: z.strictObject({ values: z.array(AnyValueSchema) }) }),
  ]),
);

const KeyValueSchema = z.strictObject({ key: z.string().min(1), value: AnyValueSchema });
export type OtlpKeyValue = z.infer<typeof KeyValueSchema>;

/** SpanKind: 1 INTERNAL, 2 SERVER (the pipeline run, per the CICD semantic conventions). */
const SpanKindSchema = z.union([z.literal(1), z.literal(2)]);
/** Status.code: 0 UNSET, 1 OK, 2 ERROR. */
const StatusSchema = z.strictObject({
  code: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  message: z.string().optional(),
});

const LinkSchema = z.strictObject({ traceId: Hex(16), spanId: Hex(8), attributes: z.array(KeyValueSchema) });
export type OtlpLink = z.infer<typeof LinkSchema>;

const SpanSchema = z
  .strictObject({
    traceId: Hex(16),
    spanId: Hex(8),
    parentSpanId: Hex(8).optional(),
    name: z.string().min(1),
    kind: SpanKindSchema,
    startTimeUnixNano: Nanos,
    endTimeUnixNano: Nanos,
    attributes: z.array(KeyValueSchema),
    links: z.array(LinkSchema),
    status: StatusSchema,
  })
  .refine((span) => BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano), {
    message: 'a span ends before it starts',
    path: ['endTimeUnixNano'],
  });
export type OtlpSpan = z.infer<typeof SpanSchema>;

export const OtlpTraceRequestSchema = z.strictObject({
  resourceSpans: z
    .array(
      z.strictObject({
        resource: z.strictObject({ attributes: z.array(KeyValueSchema) }),
        scopeSpans: z.array(
          z.strictObject({
            scope: z.strictObject({ name: z.string(), version: z.string() }),
            spans: z.array(SpanSchema),
          }),
        ),
      }),
    )
    .length(1),
});
export type OtlpTraceRequest = z.infer<typeof OtlpTraceRequestSchema>;

/**
 * The collector's answer to a 2xx (ExportTraceServiceResponse): empty, or a partial success naming the spans it
 * dropped. int64 arrives as a string from protobuf's JSON encoder, as a number from some hand-written servers.
 */
export const OtlpTraceResponseSchema = z.object({
  partialSuccess: z
    .object({
      rejectedSpans: z.union([z.string().regex(/^\d+$/), z.number().int().min(0)]).optional(),
      errorMessage: z.string().optional(),
    })
    .optional(),
});
