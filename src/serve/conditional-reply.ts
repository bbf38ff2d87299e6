import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';

// Replies with an ETag: a client that has the bytes gets a 304; a compressible body goes gzipped to a client that
// accepts gzip (the page's script is 825 KB, 269 KB gzipped), compressed once per body.

export interface Reply {
  status: number;
  body?: string | Buffer;
  type?: string;
  headers?: Record<string, string>;
}

const gzipped = new WeakMap<Buffer, Buffer>();

function gzipOnce(body: Buffer): Buffer {
  const cached = gzipped.get(body);
  if (cached) return cached;
  const packed = gzipSync(body, { level: 9 });
  gzipped.set(body, packed);
  return packed;
}

export function acceptsGzip(request: IncomingMessage): boolean {
  return /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
}

/** Weak comparison (RFC 9110 §13.1.2), as a conditional GET allows. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string): string => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * Bytes with a weak ETag of their hash (weak: one tag stands for the identity and the gzip encoding); 304 when the
 * client has them; gzipped when `compress` and the client accepts it.
 */
export function fileReply(
  request: IncomingMessage,
  body: Buffer,
  type: string | undefined,
  { compress = false }: { compress?: boolean } = {},
): Reply {
  const headers: Record<string, string> = {
    ETag: `W/"${createHash('sha1').update(body).digest('base64url')}"`,
    'Cache-Control': 'no-cache',
    ...(compress ? { Vary: 'Accept-Encoding' } : {}),
  };
  if (matchesEtag(request.headers['if-none-match'], headers.ETag!)) return { status: 304, headers };
  if (compress && acceptsGzip(request))
    return { status: 200, type, body: gzipOnce(body), headers: { ...headers, 'Content-Encoding': 'gzip' } };
  return { status: 200, type, body, headers };
}
