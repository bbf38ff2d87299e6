import {
  isRecord,
  toParentId,
  toSpanKind,
  type AttributeValue,
  type DecodedSpans,
  type SpanStatus,
  type TraceSpan,
} from './trace-span.js';
import { parseRfc3339Ms } from '../logs/parse-timestamp.js';
import { errorMessage } from '../../shared/error-message.js';

// The trace BuildKit stores with a build record: Go `json.Encoder` output of OTel SDK `tracetest.SpanStub`
// objects, concatenated (one indented object per span), or the same stubs in a JSON array.
// Status.Code uses the Go SDK numbering: 0 Unset, 1 Error, 2 Ok (strings "Unset"/"Error"/"Ok" also accepted).

/**
 * Splits concatenated JSON objects at top-level brace depth; text between objects is reported, not parsed.
 * @internal
 */
export function splitConcatenatedObjects(text: string): {
  objects: { text: string; line: number }[];
  junk: { line: number; text: string }[];
  truncated: number | undefined;
} {
  const objects: { text: string; line: number }[] = [];
  const junk: { line: number; text: string }[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  let line = 1;
  let startLine = 1;
  let junkStart = -1;
  let junkLine = 1;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 10) line += 1;
    if (inString) {
      if (code === 92) i += 1;
      else if (code === 34) inString = false;
      continue;
    }
    if (code === 34 && depth > 0) inString = true;
    else if (code === 123) {
      if (depth === 0) {
        if (junkStart !== -1) junk.push({ line: junkLine, text: text.slice(junkStart, i).trim() });
        junkStart = -1;
        start = i;
        startLine = line;
      }
      depth += 1;
    } else if (code === 125 && depth > 0) {
      depth -= 1;
      if (depth === 0) objects.push({ text: text.slice(start, i + 1), line: startLine });
    } else if (depth === 0 && code > 32 && junkStart === -1) {
      junkStart = i;
      junkLine = line;
    }
  }
  if (junkStart !== -1) junk.push({ line: junkLine, text: text.slice(junkStart).trim() });
  return { objects, junk, truncated: depth > 0 ? startLine : undefined };
}

export function decodeSpanStream(text: string): DecodedSpans {
  const { objects, junk, truncated } = splitConcatenatedObjects(text);
  const result: DecodedSpans = { encoding: 'span-stream', spans: [], seen: 0, rejected: [] };
  for (const piece of junk) {
    result.seen += 1;
    result.rejected.push({
      line: piece.line,
      reason: `text between span objects: ${JSON.stringify(piece.text.slice(0, 40))}`,
    });
  }
  for (const object of objects) {
    let value: unknown;
    try {
      value = JSON.parse(object.text);
    } catch (error) {
      result.seen += 1;
      result.rejected.push({
        line: object.line,
        reason: `invalid JSON in span object: ${errorMessage(error)}`,
      });
      continue;
    }
    addStub(result, value, object.line);
  }
  if (truncated !== undefined) {
    result.seen += 1;
    result.rejected.push({ line: truncated, reason: 'truncated span object at the end of the stream' });
  }
  return result;
}

/** The same stubs as a JSON array (buildx's `otlp.json` fixture form). */
export function decodeSpanStubArray(values: readonly unknown[]): DecodedSpans {
  const result: DecodedSpans = { encoding: 'span-stream', spans: [], seen: 0, rejected: [] };
  values.forEach((value, index) => addStub(result, value, index + 1));
  return result;
}

function addStub(result: DecodedSpans, value: unknown, line: number): void {
  result.seen += 1;
  const span = toSpanFromStub(value);
  if (typeof span === 'string') result.rejected.push({ line, reason: span });
  else result.spans.push(span);
}

export function isSpanStub(value: unknown): boolean {
  return isRecord(value) && 'SpanContext' in value && 'Name' in value;
}

function toSpanFromStub(value: unknown): TraceSpan | string {
  if (!isRecord(value)) return 'span is not an object';
  const context = value.SpanContext;
  if (!isRecord(context) || typeof context.SpanID !== 'string' || context.SpanID === '')
    return 'span without SpanContext.SpanID';
  if (typeof value.Name !== 'string') return `span ${context.SpanID}: Name is not a string`;
  const startMs = typeof value.StartTime === 'string' ? parseRfc3339Ms(value.StartTime) : undefined;
  const endMs = typeof value.EndTime === 'string' ? parseRfc3339Ms(value.EndTime) : undefined;
  if (startMs === undefined || endMs === undefined)
    return `span ${context.SpanID}: StartTime/EndTime are not RFC 3339 times`;
  const parent = isRecord(value.Parent) ? value.Parent : {};
  return {
    traceId: typeof context.TraceID === 'string' ? context.TraceID : '',
    spanId: context.SpanID,
    parentId: toParentId(parent.SpanID),
    name: value.Name,
    kind: toSpanKind(value.SpanKind),
    startMs,
    endMs,
    attributes: toStubAttributes(value.Attributes),
    status: toGoSdkStatus(value.Status),
    service: toStubAttributes(value.Resource).get('service.name')?.toString(),
  };
}

function toStubAttributes(list: unknown): Map<string, AttributeValue> {
  const attributes = new Map<string, AttributeValue>();
  if (!Array.isArray(list)) return attributes;
  for (const entry of list) {
    if (!isRecord(entry) || typeof entry.Key !== 'string' || !isRecord(entry.Value)) continue;
    const inner = entry.Value.Value;
    if (typeof inner === 'string' || typeof inner === 'number' || typeof inner === 'boolean')
      attributes.set(entry.Key, inner);
    else if (Array.isArray(inner)) attributes.set(entry.Key, JSON.stringify(inner));
  }
  return attributes;
}

function toGoSdkStatus(status: unknown): SpanStatus {
  const code = isRecord(status) ? status.Code : undefined;
  if (code === 1 || code === 'Error' || code === 'ERROR') return 'error';
  if (code === 2 || code === 'Ok' || code === 'OK') return 'ok';
  return 'unset';
}
