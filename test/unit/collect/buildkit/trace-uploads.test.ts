import { describe, expect, it } from 'vitest';
import { parseBuildkitTrace } from '../../../../src/collect/index.js';
import {
  findStub,
  readRealStubs,
  toJaegerDocument,
  toOtlpDocument,
  toSpanStreamText,
  type SpanStub,
  type StubAttribute,
} from './real-trace.js';

// Upload spans built from the real trace's registry request pair (outer remotes.docker.resolver.HTTPRequest
// 0e8cc109… around inner `HTTP HEAD` f1f5f1e3…), turned into PUT/POST requests under the target's Solve span.

const solveId = 'f1bb978313184255';
const str = (Key: string, Value: string): StubAttribute => ({ Key, Value: { Type: 'STRING', Value } });
const int = (Key: string, Value: number): StubAttribute => ({ Key, Value: { Type: 'INT64', Value } });

interface RequestSpec {
  id: string;
  method: string;
  url: string;
  status: number;
  bytes: number;
  schema: 'old' | 'new' | 'header-only';
  parentId?: string;
  start?: string;
}

function toAttributes(spec: RequestSpec, inner: boolean): StubAttribute[] {
  const size = spec.schema === 'old' ? [int('http.request_content_length', spec.bytes)] : [];
  const header =
    inner && spec.schema !== 'old' ? [str('http.request.header.content-length', String(spec.bytes))] : [];
  const base =
    spec.schema === 'old'
      ? [str('http.method', spec.method), str('http.url', spec.url), int('http.status_code', spec.status)]
      : [
          str('http.request.method', spec.method),
          str('url.full', spec.url),
          int('http.response.status_code', spec.status),
        ];
  return [...base, ...size, ...header];
}

function requestPair(spec: RequestSpec): SpanStub[] {
  const stubs = readRealStubs();
  const outer = structuredClone(findStub(stubs, '0e8cc109bf2f9cfa'));
  const inner = structuredClone(findStub(stubs, 'f1f5f1e324025582'));
  const start = spec.start ?? '2024-01-12T14:59:05.000000000Z';
  outer.SpanContext.SpanID = `${spec.id}00000000`;
  outer.Parent.SpanID = spec.parentId ?? solveId;
  outer.Attributes = toAttributes(spec, false);
  inner.SpanContext.SpanID = `${spec.id}11111111`;
  inner.Parent.SpanID = outer.SpanContext.SpanID;
  inner.Name = `HTTP ${spec.method}`;
  inner.Attributes = toAttributes(spec, true);
  for (const stub of [outer, inner]) {
    stub.StartTime = start;
    stub.EndTime = '2024-01-12T14:59:07.500000000Z';
  }
  return [outer, inner];
}

const registry = 'https://reg.lan:5000/v2';
const refs = { cacheRefs: ['reg.lan:5000/rocm/cache:test-go'], imageRefs: ['reg.lan:5000/rocm/test-go:1.4'] };

describe('upload spans', () => {
  it.each(['old', 'new', 'header-only'] as const)(
    'reads a blob PUT with the %s attribute schema, counting the request once',
    (schema) => {
      const stubs = [
        ...readRealStubs(),
        ...requestPair({
          id: 'aa',
          method: 'PUT',
          url: `${registry}/rocm/cache/blobs/uploads/7c1e?digest=sha256%3A0007`,
          status: 201,
          bytes: 48213377,
          schema,
        }),
      ];
      const { trace } = parseBuildkitTrace(toSpanStreamText(stubs), {
        source: 't',
        target: 'test-go',
        ...refs,
      });
      expect(trace.uploads).toEqual([
        {
          startMs: Date.parse('2024-01-12T14:59:05Z'),
          endMs: Date.parse('2024-01-12T14:59:07.5Z'),
          method: 'PUT',
          url: `${registry}/rocm/cache/blobs/uploads/7c1e?digest=sha256%3A0007`,
          status: 201,
          bytes: 48213377,
          kind: 'cache',
        },
      ]);
    },
  );

  it('classifies manifests by tag and blobs by repository; ignores HEAD requests', () => {
    const stubs = [
      ...readRealStubs(),
      ...requestPair({
        id: 'b1',
        method: 'POST',
        url: `${registry}/rocm/test-go/blobs/uploads/`,
        status: 202,
        bytes: 0,
        schema: 'new',
      }),
      ...requestPair({
        id: 'b2',
        method: 'PUT',
        url: `${registry}/rocm/test-go/manifests/1.4`,
        status: 201,
        bytes: 1203,
        schema: 'new',
      }),
      ...requestPair({
        id: 'b3',
        method: 'PUT',
        url: `${registry}/rocm/cache/manifests/test-go`,
        status: 201,
        bytes: 900,
        schema: 'new',
      }),
      ...requestPair({
        id: 'b4',
        method: 'PUT',
        url: `${registry}/other/repo/blobs/uploads/1?digest=sha256%3A1`,
        status: 500,
        bytes: 10,
        schema: 'new',
      }),
      ...requestPair({
        id: 'b5',
        method: 'HEAD',
        url: `${registry}/rocm/test-go/blobs/sha256:1`,
        status: 200,
        bytes: 0,
        schema: 'new',
      }),
    ];
    const { trace } = parseBuildkitTrace(toSpanStreamText(stubs), {
      source: 't',
      target: 'test-go',
      ...refs,
    });
    expect(
      trace.uploads.map((upload) => [
        upload.method,
        upload.url.replace(registry, ''),
        upload.kind,
        upload.bytes,
        upload.status,
      ]),
    ).toEqual([
      ['POST', '/rocm/test-go/blobs/uploads/', 'image', 0, 202],
      ['PUT', '/rocm/test-go/manifests/1.4', 'image', 1203, 201],
      ['PUT', '/rocm/cache/manifests/test-go', 'cache', 900, 201],
      ['PUT', '/other/repo/blobs/uploads/1?digest=sha256%3A1', 'unknown', 10, 500],
    ]);
  });

  it('reports an unknown size as null, never 0', () => {
    const pair = requestPair({
      id: 'c1',
      method: 'PUT',
      url: `${registry}/rocm/cache/blobs/uploads/9`,
      status: 201,
      bytes: 5,
      schema: 'new',
    });
    for (const stub of pair)
      stub.Attributes = (stub.Attributes ?? []).filter(
        (attribute) => !attribute.Key.includes('content-length'),
      );
    const { trace } = parseBuildkitTrace(toSpanStreamText([...readRealStubs(), ...pair]), {
      source: 't',
      ...refs,
    });
    expect(trace.uploads[0]?.bytes).toBeNull();
  });

  it('when cache and image share a repository, tells blobs apart by the image exporter span', () => {
    const sameRepo = {
      cacheRefs: ['reg.lan:5000/rocm/test-go:cache'],
      imageRefs: ['reg.lan:5000/rocm/test-go:1.4'],
    };
    const exporter: SpanStub = {
      ...structuredClone(findStub(readRealStubs(), '081ae7125ffd36a1')),
      Name: 'exporting to image',
      Attributes: [],
    };
    exporter.SpanContext.SpanID = 'e0e0e0e0e0e0e0e0';
    const stubs = [
      ...readRealStubs(),
      exporter,
      ...requestPair({
        id: 'd1',
        method: 'PUT',
        url: `${registry}/rocm/test-go/blobs/uploads/1?digest=sha256%3A1`,
        status: 201,
        bytes: 7,
        schema: 'new',
        parentId: 'e0e0e0e0e0e0e0e0',
      }),
      ...requestPair({
        id: 'd2',
        method: 'PUT',
        url: `${registry}/rocm/test-go/blobs/uploads/2?digest=sha256%3A2`,
        status: 201,
        bytes: 8,
        schema: 'new',
      }),
      ...requestPair({
        id: 'd3',
        method: 'PUT',
        url: `${registry}/rocm/test-go/manifests/cache`,
        status: 201,
        bytes: 9,
        schema: 'new',
      }),
    ];
    const { trace } = parseBuildkitTrace(toSpanStreamText(stubs), { source: 't', ...sameRepo });
    expect(trace.uploads.map((upload) => [upload.bytes, upload.kind])).toEqual([
      [7, 'image'],
      [8, 'unknown'],
      [9, 'cache'],
    ]);
  });

  it('finds the same uploads in the Jaeger and OTLP encodings', () => {
    const stubs = [
      ...readRealStubs(),
      ...requestPair({
        id: 'f1',
        method: 'PUT',
        url: `${registry}/rocm/cache/blobs/uploads/1?digest=sha256%3A1`,
        status: 201,
        bytes: 1234,
        schema: 'old',
      }),
      ...requestPair({
        id: 'f2',
        method: 'PUT',
        url: `${registry}/rocm/test-go/manifests/1.4`,
        status: 201,
        bytes: 99,
        schema: 'header-only',
      }),
    ];
    const summary = (text: string) =>
      parseBuildkitTrace(text, { source: 't', ...refs }).trace.uploads.map((upload) => [
        upload.method,
        upload.kind,
        upload.bytes,
        upload.status,
      ]);
    const expected = [
      ['PUT', 'cache', 1234, 201],
      ['PUT', 'image', 99, 201],
    ];
    expect(summary(toSpanStreamText(stubs))).toEqual(expected);
    expect(summary(JSON.stringify(toJaegerDocument(stubs)))).toEqual(expected);
    expect(summary(JSON.stringify(toOtlpDocument(stubs)))).toEqual(expected);
  });
});
