// Records spans as the build happens and serialises them in BuildKit's stored trace format (a stream of indented
// Go `tracetest.SpanStub` JSON objects, buildkit.md §3.6), and converts them to the Jaeger JSON `history trace`
// prints (§4.5).
import { randomBytes } from 'node:crypto';
import { nowWallMs } from '../wall-clock.js';
import { toGoRfc3339Nano } from '../zot-session-line.js';

type AttrValue = string | number | boolean;
export type Attrs = Record<string, AttrValue>;
export const SpanKind = { internal: 1, server: 2, client: 3 } as const;
type Service = 'buildx' | 'buildkitd';

interface KeyValue {
  Key: string;
  Value: { Type: 'STRING' | 'INT64' | 'BOOL' | 'FLOAT64'; Value: AttrValue };
}

interface SpanContext {
  TraceID: string;
  SpanID: string;
  TraceFlags: string;
  TraceState: string;
  Remote: boolean;
}

export interface SpanStub {
  Name: string;
  SpanContext: SpanContext;
  Parent: SpanContext;
  SpanKind: number;
  StartTime: string;
  EndTime: string;
  Attributes: KeyValue[] | null;
  Events:
    { Name: string; Attributes: KeyValue[] | null; DroppedAttributeCount: number; Time: string }[] | null;
  Links: null;
  Status: { Code: number; Description: string };
  DroppedAttributes: number;
  DroppedEvents: number;
  DroppedLinks: number;
  ChildSpanCount: number;
  Resource: KeyValue[];
  InstrumentationLibrary: { Name: string; Version: string; SchemaURL: string; Attributes: null };
}

export interface SpanHandle {
  spanId: string;
  end: (options?: { error?: string; attrs?: Attrs; atMs?: number }) => void;
  addEvent: (name: string, atMs?: number) => void;
}

interface StartSpanOptions {
  name: string;
  parent?: SpanHandle | undefined;
  kind?: number;
  service: Service;
  attrs?: Attrs;
  scope?: string;
  startMs?: number;
}

/** Wall-clock ms (sub-ms steps), as BuildKit stamps spans with Go's wall clock. */
export const nowMs = (): number => nowWallMs();
const zeroContext: SpanContext = {
  TraceID: '0'.repeat(32),
  SpanID: '0'.repeat(16),
  TraceFlags: '00',
  TraceState: '',
  Remote: false,
};

function toKeyValues(attrs: Attrs): KeyValue[] {
  return Object.entries(attrs).map(([Key, value]) => ({
    Key,
    Value: {
      Type:
        typeof value === 'string'
          ? 'STRING'
          : typeof value === 'boolean'
            ? 'BOOL'
            : Number.isInteger(value)
              ? 'INT64'
              : 'FLOAT64',
      Value: value,
    },
  }));
}

function toResource(service: Service): KeyValue[] {
  return toKeyValues({
    'service.name': service,
    'telemetry.sdk.language': 'go',
    'telemetry.sdk.name': 'opentelemetry',
    'telemetry.sdk.version': '1.35.0',
  });
}

export interface TraceRecorder {
  traceId: string;
  startSpan: (options: StartSpanOptions) => SpanHandle;
  /** Spans that have ended, in end order. */
  toStubs: () => SpanStub[];
}

export function createTraceRecorder(traceId = randomBytes(16).toString('hex')): TraceRecorder {
  const ended: SpanStub[] = [];
  const childCounts = new Map<string, number>();
  const startSpan = (options: StartSpanOptions): SpanHandle => {
    const spanId = randomBytes(8).toString('hex');
    const startMs = options.startMs ?? nowMs();
    const context: SpanContext = {
      TraceID: traceId,
      SpanID: spanId,
      TraceFlags: '01',
      TraceState: '',
      Remote: false,
    };
    const parent = options.parent ? { ...context, SpanID: options.parent.spanId } : zeroContext;
    if (options.parent)
      childCounts.set(options.parent.spanId, (childCounts.get(options.parent.spanId) ?? 0) + 1);
    const attrs: Attrs = { ...options.attrs };
    const events: NonNullable<SpanStub['Events']> = [];
    return {
      spanId,
      addEvent: (name, atMs) =>
        events.push({
          Name: name,
          Attributes: null,
          DroppedAttributeCount: 0,
          Time: toGoRfc3339Nano(atMs ?? nowMs()),
        }),
      end: (endOptions = {}) => {
        Object.assign(attrs, endOptions.attrs);
        const entries = toKeyValues(attrs);
        ended.push({
          Name: options.name,
          SpanContext: context,
          Parent: parent,
          SpanKind: options.kind ?? SpanKind.internal,
          StartTime: toGoRfc3339Nano(startMs),
          EndTime: toGoRfc3339Nano(endOptions.atMs ?? nowMs()),
          Attributes: entries.length > 0 ? entries : null,
          Events: events.length > 0 ? events : null,
          Links: null,
          Status:
            endOptions.error === undefined
              ? { Code: 0, Description: '' }
              : { Code: 1, Description: endOptions.error },
          DroppedAttributes: 0,
          DroppedEvents: 0,
          DroppedLinks: 0,
          ChildSpanCount: 0,
          Resource: toResource(options.service),
          InstrumentationLibrary: {
            Name: options.scope ?? 'go.opentelemetry.io/otel/sdk/tracer',
            Version: '',
            SchemaURL: '',
            Attributes: null,
          },
        });
      },
    };
  };
  const toStubs = () =>
    ended.map((stub) => ({ ...stub, ChildSpanCount: childCounts.get(stub.SpanContext.SpanID) ?? 0 }));
  return { traceId, startSpan, toStubs };
}

/** The stored blob: concatenated, indented JSON objects (Go json.Encoder with indent), one per span. */
export function renderSpanStream(stubs: readonly SpanStub[]): string {
  return stubs.map((stub) => `${JSON.stringify(stub, null, 2)}\n`).join('');
}

/** Splits a concatenated JSON object stream. */
export function parseSpanStream(text: string): SpanStub[] {
  const out: SpanStub[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' && depth++ === 0) start = i;
    else if (c === '}' && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)) as SpanStub);
  }
  return out;
}

const toMicros = (rfc3339: string): number => {
  const match = /^(.*?)(?:\.(\d+))?Z$/.exec(rfc3339);
  const seconds = Date.parse(`${match?.[1] ?? rfc3339}Z`) / 1000;
  const fraction = Number(`0.${match?.[2] ?? '0'}`);
  return Math.round((seconds + fraction) * 1e6);
};

const jaegerType = { STRING: 'string', INT64: 'int64', BOOL: 'bool', FLOAT64: 'float64' } as const;
const kindNames: Record<number, string> = { 2: 'server', 3: 'client', 4: 'producer', 5: 'consumer' };

function toJaegerTags(values: readonly KeyValue[] | null) {
  return (values ?? []).map((kv) => ({
    key: kv.Key,
    type: jaegerType[kv.Value.Type],
    value: kv.Value.Value,
  }));
}

/** buildx `history trace` output: `{"data":[{traceID, spans, processes, warnings}]}`, one process per span. */
export function toJaegerJson(stubs: readonly SpanStub[]): string {
  const processes: Record<string, { serviceName: string; tags: ReturnType<typeof toJaegerTags> }> = {};
  const spans = stubs.map((stub, index) => {
    const processID = `p${index + 1}`;
    const service = stub.Resource.find((kv) => kv.Key === 'service.name')?.Value.Value;
    processes[processID] = {
      serviceName: String(service ?? 'unknown'),
      tags: toJaegerTags(stub.Resource.filter((kv) => kv.Key !== 'service.name')),
    };
    const tags = [
      ...toJaegerTags(stub.Attributes),
      { key: 'otel.library.name', type: 'string', value: stub.InstrumentationLibrary.Name },
    ];
    const kindName = kindNames[stub.SpanKind];
    if (kindName) tags.push({ key: 'span.kind', type: 'string', value: kindName });
    if (stub.Status.Code === 2) tags.push({ key: 'otel.status_code', type: 'string', value: 'OK' });
    if (stub.Status.Code === 1) {
      tags.push(
        { key: 'otel.status_code', type: 'string', value: 'ERROR' },
        { key: 'error', type: 'bool', value: true },
      );
      if (stub.Status.Description)
        tags.push({ key: 'otel.status_description', type: 'string', value: stub.Status.Description });
    }
    const startTime = toMicros(stub.StartTime);
    return {
      traceID: stub.SpanContext.TraceID,
      spanID: stub.SpanContext.SpanID,
      flags: 1,
      operationName: stub.Name,
      references: [{ refType: 'CHILD_OF', traceID: stub.SpanContext.TraceID, spanID: stub.Parent.SpanID }],
      startTime,
      duration: toMicros(stub.EndTime) - startTime,
      tags,
      logs: (stub.Events ?? []).map((e) => ({
        timestamp: toMicros(e.Time),
        fields: [{ key: 'event', type: 'string', value: e.Name }, ...toJaegerTags(e.Attributes)],
      })),
      processID,
      warnings: null,
    };
  });
  return JSON.stringify(
    { data: [{ traceID: stubs[0]?.SpanContext.TraceID ?? '', spans, processes, warnings: null }] },
    null,
    2,
  );
}
