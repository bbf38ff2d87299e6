// The containerd pusher's request pattern against the registry (through the Zot-logging proxy), per descriptor:
// HEAD (exists?) → POST uploads/ → PUT <location>&digest= with the body for blobs; HEAD manifests/<tag> → PUT
// manifests/<tag> for manifests (containerd core/remotes/docker/pusher.go; buildkit.md §4.4). BuildKit wraps the
// image push's handlers and the cache export's layer copies in its retry handler: a 5xx or a dropped connection
// is retried after 1 s, 2 s, 4 s (util/resolver/retryhandler), each attempt taking its push slot again.
import { createHash } from 'node:crypto';
import { sleep } from './build-context.js';
import { httpCall, type HttpCallResult } from './http-call.js';
import { parseImageRef, toRegistryUrl, type ImageRef } from './image-ref.js';
import type { PushLimiter } from './push-limiter.js';
import type { SpanHandle, TraceRecorder } from './spans.js';

const manifestAccept =
  'application/vnd.docker.distribution.manifest.v2+json, application/vnd.docker.distribution.manifest.list.v2+json, application/vnd.oci.image.manifest.v1+json, application/vnd.oci.image.index.v1+json, */*';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

interface RegistryTrace {
  recorder: TraceRecorder;
  parent: SpanHandle;
}

export interface PushContext {
  userAgent: string;
  trace?: RegistryTrace | undefined;
  /** The builder's push slots; absent: no limit. */
  limiter?: PushLimiter | undefined;
  /** First retry wait in ms (doubling, given up at 8× it, as BuildKit's 1 s … 8 s); absent: no retries. */
  retryBackoffMs?: number | undefined;
}

export const toDigest = (bytes: Buffer): string =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** A registry answer BuildKit's retry handler retries (5xx), or one it does not. */
class RegistryStatusError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

function expectStatus(result: HttpCallResult, ok: readonly number[], what: string): void {
  if (!ok.includes(result.status)) {
    throw new RegistryStatusError(
      `${what}: unexpected status ${result.status}: ${result.body.toString('utf8').slice(0, 300)}`,
      result.status,
    );
  }
}

const retryableCodes = new Set(['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ETIMEDOUT']);

function isRetryable(error: unknown): boolean {
  if (error instanceof RegistryStatusError) return error.status >= 500 && error.status <= 599;
  return retryableCodes.has((error as NodeJS.ErrnoException).code ?? '');
}

/** retryhandler.New: retries a retryable failure after backoff, 2×backoff, 4×backoff; gives up at 8×. */
async function withRetries<T>(context: PushContext, attempt: () => Promise<T>): Promise<T> {
  const first = context.retryBackoffMs;
  let backoff = first ?? 0;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (first === undefined || !isRetryable(error) || backoff >= 8 * first) throw error;
      await sleep(backoff);
      backoff *= 2;
    }
  }
}

async function withSlot<T>(
  context: PushContext,
  host: string,
  mediaType: string,
  work: () => Promise<T>,
): Promise<T> {
  const release = context.limiter ? await context.limiter.acquire(host, mediaType) : undefined;
  try {
    return await work();
  } finally {
    release?.();
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

/** One attempt at a blob: HEAD, then POST + PUT unless the registry has it. Returns whether it uploaded. */
async function pushBlobOnce(ref: ImageRef, content: Buffer, digest: string, context: PushContext) {
  const head = await httpCall({
    method: 'HEAD',
    url: toRegistryUrl(ref, 'blobs', digest),
    userAgent: context.userAgent,
    trace: context.trace,
  });
  if (head.status === 200) return false;
  const post = await httpCall({
    method: 'POST',
    url: toRegistryUrl(ref, 'uploads'),
    userAgent: context.userAgent,
    trace: context.trace,
  });
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
  expectStatus(put, [201], `PUT ${ref.repository} blob ${digest}`);
  return true;
}

/** Uploads a blob unless the registry has it (retried as BuildKit does); returns whether bytes were stored. */
export async function pushBlob(
  ref: ImageRef,
  blob: { content: Buffer; mediaType: string; digest: string },
  context: PushContext,
): Promise<{ digest: string; uploaded: boolean }> {
  const { digest } = blob;
  const uploaded = await withRetries(context, () =>
    withSlot(context, ref.host, blob.mediaType, () => pushBlobOnce(ref, blob.content, digest, context)),
  );
  return { digest, uploaded };
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

/** HEAD manifests/<tag>, then PUT unless the tag already names this very manifest (Docker-Content-Digest). */
export async function putManifest(
  refText: string,
  body: Buffer,
  mediaType: string,
  context: PushContext,
): Promise<string> {
  const ref = parseImageRef(refText);
  const digest = toDigest(body);
  await withRetries(context, () =>
    withSlot(context, ref.host, mediaType, async () => {
      const head = await httpCall({
        method: 'HEAD',
        url: toRegistryUrl(ref, 'manifests'),
        headers: { accept: mediaType },
        userAgent: context.userAgent,
        trace: context.trace,
      });
      if (head.status === 200 && head.headers['docker-content-digest'] === digest) return;
      const put = await httpCall({
        method: 'PUT',
        url: toRegistryUrl(ref, 'manifests'),
        body,
        headers: { 'content-type': mediaType },
        userAgent: context.userAgent,
        trace: context.trace,
      });
      expectStatus(put, [201], `PUT manifest ${refText}`);
    }),
  );
  return digest;
}
