// The containerd pusher's request pattern against the registry (through the Zot-logging proxy):
// HEAD blob → POST uploads/ → PUT <location>&digest= with the body → PUT manifests/<tag> (buildkit.md §4.4).
import { createHash } from 'node:crypto';
import { httpCall, type HttpCallResult } from './http-call.js';
import { parseImageRef, toRegistryUrl, type ImageRef } from './image-ref.js';
import type { SpanHandle, TraceRecorder } from './spans.js';

export const manifestAccept =
  'application/vnd.docker.distribution.manifest.v2+json, application/vnd.docker.distribution.manifest.list.v2+json, application/vnd.oci.image.manifest.v1+json, application/vnd.oci.image.index.v1+json, */*';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

export interface RegistryTrace {
  recorder: TraceRecorder;
  parent: SpanHandle;
}

export interface PushContext {
  userAgent: string;
  trace?: RegistryTrace | undefined;
  /** Collects [startMs, endMs] of every upload request (blob POST and PUT, manifest PUT): the box's upload truth. */
  uploads?: [number, number][] | undefined;
}

const recordUpload = (context: PushContext, result: HttpCallResult) =>
  context.uploads?.push([result.startMs, result.endMs]);

export const toDigest = (bytes: Buffer): string =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

function expectStatus(result: HttpCallResult, ok: readonly number[], what: string): void {
  if (!ok.includes(result.status)) {
    throw new Error(
      `${what}: unexpected status ${result.status}: ${result.body.toString('utf8').slice(0, 300)}`,
    );
  }
}

export interface FetchedManifest {
  digest: string;
  mediaType: string;
  body: Record<string, unknown>;
}

export async function fetchManifest(
  refText: string,
  context: PushContext,
): Promise<FetchedManifest | undefined> {
  const ref = parseImageRef(refText);
  const result = await httpCall({
    method: 'GET',
    url: toRegistryUrl(ref, 'manifests'),
    headers: { accept: manifestAccept },
    userAgent: context.userAgent,
    trace: context.trace,
  });
  if (result.status === 404) return undefined;
  expectStatus(result, [200], `GET manifest ${refText}`);
  const digestHeader = result.headers['docker-content-digest'];
  return {
    digest: typeof digestHeader === 'string' ? digestHeader : toDigest(result.body),
    mediaType: String(result.headers['content-type'] ?? ''),
    body: JSON.parse(result.body.toString('utf8')) as Record<string, unknown>,
  };
}

/** Uploads a blob unless the registry has it; returns whether bytes were sent. */
export async function pushBlob(
  ref: ImageRef,
  content: Buffer,
  context: PushContext,
): Promise<{ digest: string; uploaded: boolean }> {
  const digest = toDigest(content);
  const head = await httpCall({
    method: 'HEAD',
    url: toRegistryUrl(ref, 'blobs', digest),
    userAgent: context.userAgent,
    trace: context.trace,
  });
  if (head.status === 200) return { digest, uploaded: false };
  const post = await httpCall({
    method: 'POST',
    url: toRegistryUrl(ref, 'uploads'),
    userAgent: context.userAgent,
    trace: context.trace,
  });
  recordUpload(context, post);
  expectStatus(post, [202], `POST ${ref.repository} blob upload`);
  const location = new URL(String(post.headers.location ?? ''), `http://${ref.host}`);
  location.searchParams.set('digest', digest);
  const put = await httpCall({
    method: 'PUT',
    url: location.href,
    body: content,
    headers: { 'content-type': 'application/octet-stream' },
    userAgent: context.userAgent,
    trace: context.trace,
  });
  recordUpload(context, put);
  expectStatus(put, [201], `PUT ${ref.repository} blob ${digest}`);
  return { digest, uploaded: true };
}

/** Checks that a blob the layer cache refers to is still in the registry. */
export async function hasBlob(ref: ImageRef, digest: string, context: PushContext): Promise<boolean> {
  const head = await httpCall({
    method: 'HEAD',
    url: toRegistryUrl(ref, 'blobs', digest),
    userAgent: context.userAgent,
    trace: context.trace,
  });
  return head.status === 200;
}

export async function putManifest(
  refText: string,
  body: Buffer,
  mediaType: string,
  context: PushContext,
): Promise<string> {
  const ref = parseImageRef(refText);
  const put = await httpCall({
    method: 'PUT',
    url: toRegistryUrl(ref, 'manifests'),
    body,
    headers: { 'content-type': mediaType },
    userAgent: context.userAgent,
    trace: context.trace,
  });
  recordUpload(context, put);
  expectStatus(put, [201], `PUT manifest ${refText}`);
  return toDigest(body);
}
