import {
  isRecord,
  toParentId,
  toSpanKind,
  type AttributeValue,
  type DecodedSpans,
  type SpanStatus,
  type TraceSpan,
} from './trace-span.js';

// `docker buildx history trace` output: {"data":[{"traceID","spans":[…],"processes":{"p0":{serviceName,tags}}}]}.
// Times are µs since the epoch; the parent is the CHILD_OF reference (roots point at 0000000000000000);
// status is the `otel.status_code` tag ("OK"/"ERROR") or `error: true`; kind is the `span.kind` tag.

export function isJaegerDocument(value: unknown): value is { data: unknown[] } {
  return isRecord(value) && Array.isArray(value.data);
}

export function decodeJaegerTrace(document: { data: unknown[] }): DecodedSpans {
  const result: DecodedSpans = { encoding: 'jaeger', spans: [], seen: 0, rejected: [] };
  for (const trace of document.data) {
    if (!isRecord(trace) || !Array.isArray(trace.spans)) continue;
    const services = toServices(trace.processes);
    for (const raw of trace.spans) {
      result.seen += 1;
      const span = toSpanFromJaeger(raw, services);
      if (typeof span === 'string') result.rejected.push({ line: result.seen, reason: span });
      else result.spans.push(span);
    }
  }
  return result;
}

function toServices(processes: unknown): Map<string, string> {
  const services = new Map<string, string>();
  if (!isRecord(processes)) return services;
  for (const [id, process] of Object.entries(processes)) {
    if (isRecord(process) && typeof process.serviceName === 'string') services.set(id, process.serviceName);
  }
  return services;
}

function toSpanFromJaeger(raw: unknown, services: Map<string, string>): TraceSpan | string {
  if (!isRecord(raw)) return 'span is not an object';
  if (typeof raw.spanID !== 'string' || raw.spanID === '') return 'span without spanID';
  if (typeof raw.operationName !== 'string') return `span ${raw.spanID}: operationName is not a string`;
  if (typeof raw.startTime !== 'number' || typeof raw.duration !== 'number')
    return `span ${raw.spanID}: startTime/duration are not numbers`;
  const tags = toTags(raw.tags);
  const startMs = raw.startTime / 1000;
  return {
    traceId: typeof raw.traceID === 'string' ? raw.traceID : '',
    spanId: raw.spanID,
    parentId: toParentId(findParentId(raw.references)),
    name: raw.operationName,
    kind: tags.has('span.kind') ? toSpanKind(tags.get('span.kind')) : 'internal',
    startMs,
    endMs: startMs + raw.duration / 1000,
    attributes: tags,
    status: toJaegerStatus(tags),
    service: typeof raw.processID === 'string' ? services.get(raw.processID) : undefined,
  };
}

function findParentId(references: unknown): unknown {
  if (!Array.isArray(references)) return undefined;
  const parent: unknown = references.find((ref) => isRecord(ref) && ref.refType === 'CHILD_OF');
  return isRecord(parent) ? parent.spanID : undefined;
}

function toTags(list: unknown): Map<string, AttributeValue> {
  const tags = new Map<string, AttributeValue>();
  if (!Array.isArray(list)) return tags;
  for (const tag of list) {
    if (!isRecord(tag) || typeof tag.key !== 'string') continue;
    const value = tag.value;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      tags.set(tag.key, value);
  }
  return tags;
}

function toJaegerStatus(tags: Map<string, AttributeValue>): SpanStatus {
  const code = tags.get('otel.status_code');
  if (code === 'ERROR' || tags.get('error') === true) return 'error';
  return code === 'OK' ? 'ok' : 'unset';
}
