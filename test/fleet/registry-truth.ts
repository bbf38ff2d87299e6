// The registry proxy's own record of every request (registry-truth.jsonl beside zot.log): when the request's
// headers arrived, when its response's last byte left, and the body bytes the proxy received. Tests compare the
// product's figures with it: it is measured on the server side, not by the double that writes the traces.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const RegistryTruthLineSchema = z.strictObject({
  version: z.literal(1),
  clientIp: z.string(),
  clientPort: z.number().int(),
  method: z.string(),
  /** Request path and query, as sent. */
  path: z.string(),
  status: z.number().int(),
  /** When the request's headers had arrived (its first bytes), ms since the epoch. */
  firstByteMs: z.number(),
  /** When the response's last byte was handed to the socket (or the client went away). */
  endMs: z.number(),
  /** Request body bytes the proxy received. */
  requestBytes: z.number().int().nonnegative(),
  /** Response body bytes the proxy sent. */
  responseBytes: z.number().int().nonnegative(),
  /** The proxy answered 500 itself (an injected failure); the upstream never saw the request. */
  injected: z.boolean(),
});

export type RegistryTruthLine = z.infer<typeof RegistryTruthLineSchema>;

export function readRegistryTruth(filePath: string): RegistryTruthLine[] {
  return readFileSync(filePath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => RegistryTruthLineSchema.parse(JSON.parse(line)));
}

const uploadMethods = new Set(['POST', 'PUT', 'PATCH']);

/** A request that sends content to the registry (blob upload start, blob body, manifest). */
export const isUploadRequest = (line: RegistryTruthLine): boolean =>
  uploadMethods.has(line.method) && line.path.startsWith('/v2/');

/** `/v2/<repo>/manifests/<ref>` or `/v2/<repo>/blobs/…` → the repository. */
export function toRepository(requestPath: string): string | undefined {
  return /^\/v2\/(.+?)\/(?:manifests|blobs)\//.exec(requestPath)?.[1];
}

export const isManifestPut = (line: RegistryTruthLine): boolean =>
  line.method === 'PUT' && /^\/v2\/.+?\/manifests\//.test(line.path);

/** A blob body or manifest the registry stored (201), as opposed to an upload start or a failed attempt. */
export const isStoredWrite = (line: RegistryTruthLine): boolean =>
  line.method === 'PUT' && line.status === 201 && (isManifestPut(line) || line.path.includes('digest='));
