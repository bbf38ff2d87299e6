import type { TraceUpload, UploadKind } from '../types.js';
import { isSameRepository, parseImageRef, parseRegistryUrl, type ImageRef } from './parse-image-ref.js';
import { collectAncestors, type SpanTree } from './span-tree.js';
import type { AttributeValue, TraceSpan } from './trace-span.js';

// Upload spans: HTTP PUT/POST/PATCH client spans to the registry. containerd wraps each request in an outer
// `remotes.docker.resolver.HTTPRequest` span around BuildKit's inner `HTTP PUT`; a span with an HTTP child is
// skipped so a request is counted once. Both attribute schemas are read (old `http.method`/`http.url`/
// `http.status_code`/`http.request_content_length`, new `http.request.method`/`url.full`/
// `http.response.status_code`), and the size also from the `http.request.header.content-length` header attribute.

export interface UploadRefs {
  cacheRefs: readonly string[];
  imageRefs: readonly string[];
}

const uploadMethods: ReadonlySet<string> = new Set(['PUT', 'POST', 'PATCH']);
const imageExportSpan = /^(exporting to .*image|export layers|pushing)/;

function toHttpMethod(span: TraceSpan): string | undefined {
  const method = span.attributes.get('http.request.method') ?? span.attributes.get('http.method');
  if (typeof method === 'string' && method !== '') return method.toUpperCase();
  return /^HTTP ([A-Z]+)$/.exec(span.name)?.[1];
}

export function buildTraceUploads(
  spans: readonly TraceSpan[],
  tree: SpanTree,
  refs: UploadRefs,
): TraceUpload[] {
  const parsedRefs = { cache: toRefs(refs.cacheRefs), image: toRefs(refs.imageRefs) };
  const uploads: TraceUpload[] = [];
  for (const span of spans) {
    const method = toHttpMethod(span);
    if (method === undefined || !uploadMethods.has(method) || hasHttpChild(tree, span)) continue;
    const url = toText(span.attributes.get('url.full') ?? span.attributes.get('http.url')) ?? '';
    uploads.push({
      startMs: span.startMs,
      endMs: span.endMs,
      method,
      url,
      status: toInteger(
        span.attributes.get('http.response.status_code') ?? span.attributes.get('http.status_code'),
      ),
      bytes: toRequestBytes(span),
      kind: classifyUpload({ url, span, tree, refs: parsedRefs }),
    });
  }
  return uploads.sort((a, b) => a.startMs - b.startMs);
}

function hasHttpChild(tree: SpanTree, span: TraceSpan): boolean {
  return (tree.children.get(span.spanId) ?? []).some((child) => toHttpMethod(child) !== undefined);
}

function toRequestBytes(span: TraceSpan): number | null {
  const candidates = [
    span.attributes.get('http.request_content_length'),
    span.attributes.get('http.request.header.content-length'),
  ];
  for (const candidate of candidates) {
    const bytes = toInteger(candidate);
    if (bytes !== undefined && bytes >= 0) return bytes;
  }
  return null;
}

interface ClassifyInput {
  url: string;
  span: TraceSpan;
  tree: SpanTree;
  refs: { cache: ImageRef[]; image: ImageRef[] };
}

/** Tag match for manifests, then repository match, then "under the image exporter's span"; else unknown. */
function classifyUpload({ url, span, tree, refs }: ClassifyInput): UploadKind {
  const target = parseRegistryUrl(url);
  if (target !== undefined) {
    if (target.reference !== undefined) {
      const byTag = (ref: ImageRef) => isSameRepository(target, ref) && ref.tag === target.reference;
      if (refs.cache.some(byTag)) return 'cache';
      if (refs.image.some(byTag)) return 'image';
    }
    const inCache = refs.cache.some((ref) => isSameRepository(target, ref));
    const inImage = refs.image.some((ref) => isSameRepository(target, ref));
    if (inCache !== inImage) return inCache ? 'cache' : 'image';
  }
  return collectAncestors(tree, span).some((ancestor) => imageExportSpan.test(ancestor.name))
    ? 'image'
    : 'unknown';
}

function toRefs(texts: readonly string[]): ImageRef[] {
  return texts.flatMap((text) => parseImageRef(text) ?? []);
}

function toText(value: AttributeValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function toInteger(value: AttributeValue | undefined): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
}
