import {
  isRecord,
  toParentId,
  toSpanKind,
  type AttributeValue,
  type DecodedSpans,
  type SpanStatus,
  type TraceSpan,
} from './trace-span.js';

// OTLP/JSON (a collector's file exporter): resourceSpans[].scopeSpans[].spans[] (older: instrumentationLibrarySpans).
// 64-bit times are strings of ns; `status.code` is 0 Unset, 1 Ok, 2 Error — the reverse of the Go SDK stream.

export function isOtlpDocument(value: unknown): value is { resourceSpans: unknown[] } {
  return isRecord(value) && Array.isArray(value.resourceSpans);
}

export function decodeOtlpTrace(document: { resourceSpans: unknown[] }): DecodedSpans {
  const result: DecodedSpans = { encoding: 'otlp', spans: [], seen: 0, rejected: [] };
  for (const resourceSpans of document.resourceSpans) {
    if (!isRecord(resourceSpans)) continue;
    const resource = isRecord(resourceSpans.resource)
      ? toOtlpAttributes(resourceSpans.resource.attributes)
      : new Map<string, AttributeValue>();
    const service = resource.get('service.name');
    for (const scope of toScopes(resourceSpans)) {
      for (const raw of scope) {
        result.seen += 1;
        const span = toSpanFromOtlp(raw, typeof service === 'string' ? service : undefined);
        if (typeof span === 'string') result.rejected.push({ line: result.seen, reason: span });
        else result.spans.push(span);
      }
    }
  }
  return result;
}

function toScopes(resourceSpans: Record<string, unknown>): unknown[][] {
  const scopes: unknown[] = [resourceSpans.scopeSpans, resourceSpans.instrumentationLibrarySpans].flatMap(
    (list: unknown) => (Array.isArray(list) ? (list as unknown[]) : []),
  );
  return scopes.flatMap((scope) =>
    isRecord(scope) && Array.isArray(scope.spans) ? [scope.spans as unknown[]] : [],
  );
}

function toSpanFromOtlp(raw: unknown, service: string | undefined): TraceSpan | string {
  if (!isRecord(raw)) return 'span is not an object';
  if (typeof raw.spanId !== 'string' || raw.spanId === '') return 'span without spanId';
  if (typeof raw.name !== 'string') return `span ${raw.spanId}: name is not a string`;
  const startMs = toNanosMs(raw.startTimeUnixNano);
  const endMs = toNanosMs(raw.endTimeUnixNano);
  if (startMs === undefined || endMs === undefined)
    return `span ${raw.spanId}: start/endTimeUnixNano are not integers`;
  return {
    traceId: typeof raw.traceId === 'string' ? raw.traceId : '',
    spanId: raw.spanId,
    parentId: toParentId(raw.parentSpanId),
    name: raw.name,
    kind: toSpanKind(raw.kind),
    startMs,
    endMs,
    attributes: toOtlpAttributes(raw.attributes),
    status: toOtlpStatus(raw.status),
    service,
  };
}

/** ns since the epoch (string or number) → ms; the ms part is exact, the fraction keeps µs. */
function toNanosMs(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,20}$/.test(text)) return undefined;
  if (text.length <= 6) return Number(text) / 1e6;
  return Number(text.slice(0, -6)) + Number(text.slice(-6)) / 1e6;
}

function toOtlpAttributes(list: unknown): Map<string, AttributeValue> {
  const attributes = new Map<string, AttributeValue>();
  if (!Array.isArray(list)) return attributes;
  for (const entry of list) {
    if (!isRecord(entry) || typeof entry.key !== 'string' || !isRecord(entry.value)) continue;
    const value = toAnyValue(entry.value);
    if (value !== undefined) attributes.set(entry.key, value);
  }
  return attributes;
}

function toAnyValue(value: Record<string, unknown>): AttributeValue | undefined {
  if (typeof value.stringValue === 'string') return value.stringValue;
  if (typeof value.boolValue === 'boolean') return value.boolValue;
  if (typeof value.doubleValue === 'number') return value.doubleValue;
  if (typeof value.intValue === 'number') return value.intValue;
  if (typeof value.intValue === 'string' && /^-?\d+$/.test(value.intValue)) return Number(value.intValue);
  if (isRecord(value.arrayValue)) return JSON.stringify(value.arrayValue.values ?? []);
  return undefined;
}

function toOtlpStatus(status: unknown): SpanStatus {
  const code = isRecord(status) ? status.code : undefined;
  if (code === 2 || code === 'STATUS_CODE_ERROR') return 'error';
  if (code === 1 || code === 'STATUS_CODE_OK') return 'ok';
  return 'unset';
}
