// Registry uploads in real traces of `bake --push` with `cache-to type=registry,mode=max`, in both HTTP attribute
// generations: BuildKit v0.32.2 (`http.request.method`, `url.full`, `http.response.status_code`, size only in the
// `http.request.header.content-length` header attribute) and BuildKit v0.17.3 (`http.method`, `http.url`,
// `http.status_code`, `http.request_content_length`). containerd's outer `remotes.docker.resolver.HTTPRequest`
// span carries the attributes (and error status) too and wraps BuildKit's inner `HTTP <METHOD>` span.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBuildkitTrace } from '../../../../src/collect/index.js';

const read = (name: string) =>
  readFileSync(new URL(`../../../fixtures/buildkit-real/${name}`, import.meta.url), 'utf8');

interface JaegerSpan {
  operationName: string;
  tags: { key: string; value: unknown }[];
}

/** The inner `HTTP PUT|POST` spans of the trace, with the request size the span itself records. */
function readInnerUploads(name: string, sizeKey: string): { url: string; bytes: number }[] {
  const spans = (JSON.parse(read(name)) as { data: { spans: JaegerSpan[] }[] }).data.flatMap((t) => t.spans);
  return spans
    .filter((span) => span.operationName === 'HTTP PUT' || span.operationName === 'HTTP POST')
    .map((span) => {
      const tags = new Map(span.tags.map((tag) => [tag.key, tag.value]));
      return {
        url: String(tags.get('url.full') ?? tags.get('http.url')),
        bytes: Number(tags.get(sizeKey) ?? 0),
      };
    });
}

describe.each([
  ['trace-push-cache-max.jaeger.json', 'v0.32.2', '5999', 'http.request.header.content-length'],
  ['trace-old-pair-push-cache-max.jaeger.json', 'v0.17.3', '5997', 'http.request_content_length'],
])('%s (BuildKit %s)', (name, _version, port, sizeKey) => {
  const { trace } = parseBuildkitTrace(read(name), {
    source: name,
    target: 'pytorch-wheel',
    cacheRefs: [`127.0.0.1:${port}/rocm/cache:pytorch-wheel-gfx1201`],
    imageRefs: [`127.0.0.1:${port}/rocm/pytorch-wheel:gfx1201`],
  });
  const inner = readInnerUploads(name, sizeKey);
  const sum = (items: { bytes: number | null }[]) =>
    items.reduce((total, item) => total + (item.bytes ?? 0), 0);

  it('counts each request once (the inner span, not the resolver span around it)', () => {
    expect(inner.length).toBeGreaterThan(20);
    expect(trace.uploads).toHaveLength(inner.length);
    expect(trace.uploads.map((upload) => upload.url).sort()).toEqual(
      inner.map((upload) => upload.url).sort(),
    );
  });

  it('upload bytes are the request sizes the trace records, split into image and cache', () => {
    const isCache = (url: string) => url.includes('/v2/rocm/cache/');
    const byKind = (kind: string) => trace.uploads.filter((upload) => upload.kind === kind);
    expect(byKind('unknown')).toEqual([]);
    expect(sum(byKind('cache'))).toBe(sum(inner.filter((upload) => isCache(upload.url))));
    expect(sum(byKind('image'))).toBe(sum(inner.filter((upload) => !isCache(upload.url))));
    expect(sum(trace.uploads)).toBeGreaterThan(10_000_000);
    expect(trace.uploads.every((upload) => upload.bytes !== null)).toBe(true);
  });

  it('a blob-upload POST moves no bytes, a cross-repository mount neither', () => {
    const posts = trace.uploads.filter((upload) => upload.method === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    expect(
      posts.every((upload) => upload.bytes === 0 && (upload.status === 201 || upload.status === 202)),
    ).toBe(true);
    expect(trace.uploads.every((upload) => upload.method === 'POST' || upload.method === 'PUT')).toBe(true);
  });
});

it('v0.32.2: a cross-repository mount POST (201) is one upload of 0 bytes', () => {
  const { trace } = parseBuildkitTrace(read('trace-push-cache-max.jaeger.json'), {
    source: 't',
    target: 'pytorch-wheel',
  });
  const mounts = trace.uploads.filter((upload) => upload.url.includes('?mount='));
  expect(mounts.map((upload) => [upload.method, upload.status, upload.bytes])).toEqual([
    ['POST', 201, 0],
    ['POST', 201, 0],
  ]);
});
