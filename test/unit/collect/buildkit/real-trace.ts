// Test helper: the real BuildKit trace (test/fixtures/buildkit/README.md) (a stream of OTel Go SDK span stubs), and generators that
// re-encode it as `docker buildx history trace` Jaeger JSON and as OTLP/JSON, following buildx's
// util/otelutil/jaeger conversion and the OTLP JSON rules (hex ids, ns as strings, status 1 Ok / 2 Error).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitConcatenatedObjects } from '../../../../src/collect/buildkit/parse-span-stream.js';

interface StubValue {
  Type: string;
  Value: unknown;
}
export interface StubAttribute {
  Key: string;
  Value: StubValue;
}
export interface SpanStub {
  Name: string;
  SpanContext: { TraceID: string; SpanID: string };
  Parent: { TraceID: string; SpanID: string };
  SpanKind: number;
  StartTime: string;
  EndTime: string;
  Attributes: StubAttribute[] | null;
  Status: { Code: number | string; Description: string };
  Resource: StubAttribute[] | null;
  [key: string]: unknown;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const realTracePath = path.resolve(repoRoot, 'test/fixtures/buildkit/bktraces.json');

export function readRealTraceText(): string {
  return readFileSync(realTracePath, 'utf8');
}

export function readRealStubs(): SpanStub[] {
  return splitConcatenatedObjects(readRealTraceText()).objects.map(
    (object) => JSON.parse(object.text) as SpanStub,
  );
}

/** The stored encoding: Go's json.Encoder with indent, one object after another. */
export function toSpanStreamText(stubs: readonly SpanStub[]): string {
  return stubs.map((stub) => `${JSON.stringify(stub, null, 2)}\n`).join('');
}

function toNanos(rfc3339: string): bigint {
  const match = /^(.*?)(?:\.(\d+))?Z$/.exec(rfc3339);
  if (match === null) throw new Error(`not an RFC 3339 UTC time: ${rfc3339}`);
  const fraction = (match[2] ?? '').padEnd(9, '0');
  return BigInt(Date.parse(`${match[1]}Z`)) * 1_000_000n + BigInt(fraction);
}

const kindNames = ['', 'internal', 'server', 'client', 'producer', 'consumer'];

function toJaegerTag(attribute: StubAttribute): { key: string; type: string; value: unknown } {
  const type =
    { STRING: 'string', INT64: 'int64', BOOL: 'bool', FLOAT64: 'float64' }[attribute.Value.Type] ?? 'string';
  const value =
    typeof attribute.Value.Value === 'object' ? JSON.stringify(attribute.Value.Value) : attribute.Value.Value;
  return { key: attribute.Key, type, value };
}

/** `docker buildx history trace` output for these spans. */
export function toJaegerDocument(stubs: readonly SpanStub[]): unknown {
  const processes: Record<string, unknown> = {};
  const spans = stubs.map((stub, index) => {
    const service = stub.Resource?.find((attribute) => attribute.Key === 'service.name')?.Value.Value;
    processes[`p${index}`] = { serviceName: service, tags: [] };
    const tags = (stub.Attributes ?? []).map(toJaegerTag);
    if (stub.SpanKind !== 1 && kindNames[stub.SpanKind])
      tags.push({ key: 'span.kind', type: 'string', value: kindNames[stub.SpanKind] });
    if (stub.Status.Code === 2) tags.push({ key: 'otel.status_code', type: 'string', value: 'OK' });
    if (stub.Status.Code === 1)
      tags.push(
        { key: 'otel.status_code', type: 'string', value: 'ERROR' },
        { key: 'error', type: 'bool', value: true },
      );
    const start = toNanos(stub.StartTime) / 1000n;
    return {
      traceID: stub.SpanContext.TraceID,
      spanID: stub.SpanContext.SpanID,
      flags: 1,
      operationName: stub.Name,
      references: [{ refType: 'CHILD_OF', traceID: stub.SpanContext.TraceID, spanID: stub.Parent.SpanID }],
      startTime: Number(start),
      duration: Number(toNanos(stub.EndTime) / 1000n - start),
      tags,
      logs: [],
      processID: `p${index}`,
      warnings: null,
    };
  });
  return { data: [{ traceID: stubs[0]?.SpanContext.TraceID, spans, processes, warnings: null }] };
}

function toOtlpValue(value: StubValue): Record<string, unknown> {
  switch (value.Type) {
    case 'INT64':
      return { intValue: String(value.Value) };
    case 'BOOL':
      return { boolValue: value.Value };
    case 'FLOAT64':
      return { doubleValue: value.Value };
    default:
      return { stringValue: String(value.Value) };
  }
}

/** OTLP/JSON as a collector's file exporter writes it; Go SDK status 1 Error / 2 Ok become OTLP 2 / 1. */
export function toOtlpDocument(stubs: readonly SpanStub[]): unknown {
  const byService = new Map<string, SpanStub[]>();
  for (const stub of stubs) {
    const value = stub.Resource?.find((attribute) => attribute.Key === 'service.name')?.Value.Value;
    const service = typeof value === 'string' ? value : '';
    byService.set(service, [...(byService.get(service) ?? []), stub]);
  }
  return {
    resourceSpans: [...byService].map(([service, group]) => ({
      resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
      scopeSpans: [
        {
          scope: { name: 'go.opentelemetry.io/otel/sdk/tracer' },
          spans: group.map((stub) => ({
            traceId: stub.SpanContext.TraceID,
            spanId: stub.SpanContext.SpanID,
            parentSpanId: /^0+$/.test(stub.Parent.SpanID) ? '' : stub.Parent.SpanID,
            name: stub.Name,
            kind: stub.SpanKind,
            startTimeUnixNano: toNanos(stub.StartTime).toString(),
            endTimeUnixNano: toNanos(stub.EndTime).toString(),
            attributes: (stub.Attributes ?? []).map((attribute) => ({
              key: attribute.Key,
              value: toOtlpValue(attribute.Value),
            })),
            status: stub.Status.Code === 1 ? { code: 2 } : stub.Status.Code === 2 ? { code: 1 } : {},
          })),
        },
      ],
    })),
  };
}

/** Copies of `rootId`'s subtree with fresh span ids (suffix swapped) and renamed steps, re-parented. */
export function cloneSubtree(options: {
  stubs: readonly SpanStub[];
  rootId: string;
  parentId: string;
  rename: (name: string) => string;
  idSuffix: string;
}): SpanStub[] {
  const { stubs, rootId, parentId, rename, idSuffix } = options;
  const ids = new Set([rootId]);
  for (let grew = true; grew;) {
    grew = false;
    for (const stub of stubs) {
      if (ids.has(stub.Parent.SpanID) && !ids.has(stub.SpanContext.SpanID)) {
        ids.add(stub.SpanContext.SpanID);
        grew = true;
      }
    }
  }
  const newId = (id: string) => id.slice(0, -idSuffix.length) + idSuffix;
  return stubs
    .filter((stub) => ids.has(stub.SpanContext.SpanID))
    .map((stub) => ({
      ...structuredClone(stub),
      Name: rename(stub.Name),
      SpanContext: { ...stub.SpanContext, SpanID: newId(stub.SpanContext.SpanID) },
      Parent: {
        ...stub.Parent,
        SpanID: stub.SpanContext.SpanID === rootId ? parentId : newId(stub.Parent.SpanID),
      },
    }));
}

export function findStub(stubs: readonly SpanStub[], spanId: string): SpanStub {
  const stub = stubs.find((candidate) => candidate.SpanContext.SpanID === spanId);
  if (stub === undefined) throw new Error(`no span ${spanId} in the real trace`);
  return stub;
}
