// The one span shape the three trace encodings are decoded into, before attribution to a target.

export type SpanStatus = 'unset' | 'ok' | 'error';
export type SpanKind = 'unspecified' | 'internal' | 'server' | 'client' | 'producer' | 'consumer';
export type AttributeValue = string | number | boolean;

export interface TraceSpan {
  traceId: string;
  spanId: string;
  /** Undefined for a root (no parent, or the all-zero id). */
  parentId: string | undefined;
  name: string;
  kind: SpanKind;
  startMs: number;
  endMs: number;
  attributes: Map<string, AttributeValue>;
  status: SpanStatus;
  /** `service.name` of the process that made the span: buildx, buildkitd or dockerd. */
  service: string | undefined;
}

/** What a decoder made of each span object: spans, plus 1-based positions and reasons of the rejected ones. */
export interface DecodedSpans {
  encoding: 'span-stream' | 'jaeger' | 'otlp';
  spans: TraceSpan[];
  /** Span objects seen, including rejected ones. */
  seen: number;
  rejected: { line: number; reason: string }[];
}

const spanKinds: readonly SpanKind[] = [
  'unspecified',
  'internal',
  'server',
  'client',
  'producer',
  'consumer',
];

export function toSpanKind(value: unknown): SpanKind {
  if (typeof value === 'number') return spanKinds[value] ?? 'unspecified';
  if (typeof value !== 'string') return 'unspecified';
  const name = value.toLowerCase().replace(/^span_kind_/, '');
  return (spanKinds as readonly string[]).includes(name) ? (name as SpanKind) : 'unspecified';
}

export function toParentId(id: unknown): string | undefined {
  if (typeof id !== 'string' || id === '' || /^0+$/.test(id)) return undefined;
  return id;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
