import type { SimRun, SimTarget } from './simulate-run.js';

// One target's build record as BuildKit stores it: a stream of indented OTel Go SDK span stubs
// (shared/formats/buildkit.md §3.6): bake root (buildx) → Control/Solve server span → step spans and
// containerd's HTTPRequest → `HTTP PUT` upload spans.

interface Attribute {
  Key: string;
  Value: { Type: 'STRING' | 'INT64'; Value: string | number };
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '000Z');
}

function createIds(target: string): { trace: string; next: () => string } {
  let hash = 0;
  for (const c of target) hash = (Math.imul(hash, 31) + c.charCodeAt(0)) >>> 0;
  let counter = 0;
  const hex = (n: number, width: number) => n.toString(16).padStart(width, '0').slice(-width);
  return { trace: hex(hash, 8).repeat(4), next: () => hex(hash, 8) + hex(++counter, 8) };
}

function span(options: {
  name: string;
  id: string;
  parent: string;
  trace: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes?: Attribute[];
  service: string;
}): object {
  const context = (spanId: string) => ({
    TraceID: options.trace,
    SpanID: spanId,
    TraceFlags: '01',
    TraceState: '',
    Remote: false,
  });
  return {
    Name: options.name,
    SpanContext: context(options.id),
    Parent: context(options.parent),
    SpanKind: options.kind,
    StartTime: iso(options.startMs),
    EndTime: iso(options.endMs),
    Attributes: options.attributes ?? null,
    Events: null,
    Links: null,
    Status: { Code: 0, Description: '' },
    DroppedAttributes: 0,
    DroppedEvents: 0,
    DroppedLinks: 0,
    ChildSpanCount: 0,
    Resource: [{ Key: 'service.name', Value: { Type: 'STRING', Value: options.service } }],
    InstrumentationScope: { Name: '', Version: '', SchemaURL: '' },
  };
}

const str = (Key: string, Value: string): Attribute => ({ Key, Value: { Type: 'STRING', Value } });
const int = (Key: string, Value: number): Attribute => ({ Key, Value: { Type: 'INT64', Value } });

export function renderTrace(run: SimRun, target: SimTarget): string {
  const ids = createIds(target.name);
  const root = ids.next();
  const solve = ids.next();
  const common = { trace: ids.trace };
  const spans: object[] = [
    span({
      ...common,
      name: `bake ${target.name}`,
      id: root,
      parent: '0000000000000000',
      kind: 1,
      startMs: target.startMs,
      endMs: target.endMs,
      service: 'buildx',
    }),
    span({
      ...common,
      name: 'moby.buildkit.v1.Control/Solve',
      id: solve,
      parent: root,
      kind: 2,
      startMs: target.startMs + 200,
      endMs: target.endMs - 100,
      service: 'buildkitd',
    }),
  ];
  const count = target.steps.length;
  target.steps.forEach((step, index) => {
    const vertex = `[${target.name} ${String(index + 1).padStart(String(count).length, ' ')}/${count}] ${step.instruction}`;
    spans.push(
      span({
        ...common,
        name: step.cached ? `load cache: ${vertex}` : vertex,
        id: ids.next(),
        parent: solve,
        kind: 1,
        startMs: step.startMs,
        endMs: step.endMs,
        attributes: [str('vertex', `sha256:${ids.next()}`)],
        service: 'buildkitd',
      }),
    );
  });
  for (const upload of target.uploads) {
    const outer = ids.next();
    const url = upload.isManifest
      ? `http://registry.fleet.lan:5000/v2/${upload.repository}/manifests/${upload.reference}`
      : `http://registry.fleet.lan:5000/v2/${upload.repository}/blobs/uploads/${ids.next()}?digest=sha256%3A${ids.next()}`;
    spans.push(
      span({
        ...common,
        name: 'remotes.docker.resolver.HTTPRequest',
        id: outer,
        parent: solve,
        kind: 3,
        startMs: upload.startMs,
        endMs: upload.endMs,
        service: 'buildkitd',
      }),
    );
    spans.push(
      span({
        ...common,
        name: 'HTTP PUT',
        id: ids.next(),
        parent: outer,
        kind: 3,
        startMs: upload.startMs,
        endMs: upload.endMs,
        attributes: [
          str('http.method', 'PUT'),
          str('http.url', url),
          int('http.status_code', 201),
          int('http.request_content_length', upload.bytes),
        ],
        service: 'buildkitd',
      }),
    );
  }
  void run;
  return spans.map((s) => JSON.stringify(s, null, '\t')).join('\n') + '\n';
}
