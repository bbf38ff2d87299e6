// Registry entries → records. A blob is counted once, at the 201 of the finalising PUT
// (`…/blobs/uploads/<uuid>?digest=`) or of a monolithic POST (`…/blobs/uploads/?digest=`); its size is the sum of
// the PATCH Content-Lengths of its upload session plus the PUT's own. Sizes the log does not show stay null.
import type { RegistryKind, RegistryRecord } from '../types.js';
import { createCacheMatcher } from './match-glob.js';
import type { RegistryEntry } from './registry-entry.js';
import type { RegistryRoute } from './parse-registry-path.js';
import { parseRegistryPath } from './parse-registry-path.js';

interface UploadSession {
  bytes: number;
  /** A chunk without a Content-Length was seen. */
  unknown: boolean;
}

export interface RegistryRecordBuilderOptions {
  cachePatterns: readonly string[];
  /** Upload sessions remembered at once (oldest dropped first). */
  maxSessions?: number;
}

const isCreated = (status: number) => status === 201;
const isServed = (status: number) => status === 200 || status === 206;

/** The size of a finalised upload: null when any chunk's size, or every chunk (none seen, PUT empty), is unknown. */
function toFinalBytes(session: UploadSession | undefined, own: number | null): number | null {
  if (own === null || session?.unknown === true) return null;
  if (session === undefined) return own > 0 ? own : null;
  return session.bytes + own;
}

export function createRegistryRecordBuilder(options: RegistryRecordBuilderOptions): (entry: RegistryEntry) => RegistryRecord {
  const matcher = createCacheMatcher(options.cachePatterns);
  const maxSessions = options.maxSessions ?? 100_000;
  const sessions = new Map<string, UploadSession>();

  function addChunk(uuid: string, bytes: number | null): void {
    const session = sessions.get(uuid) ?? { bytes: 0, unknown: false };
    if (bytes === null) session.unknown = true;
    else session.bytes += bytes;
    sessions.set(uuid, session);
    if (sessions.size > maxSessions) sessions.delete(sessions.keys().next().value ?? '');
  }

  function classify(entry: RegistryEntry, route: RegistryRoute): { kind: RegistryKind; reference?: string; bytes: number | null } {
    const { method, status } = entry;
    if (route.kind === 'upload' && method === 'PATCH') {
      if (status === 202) addChunk(route.uuid, entry.requestBytes);
      return { kind: 'other', bytes: entry.requestBytes };
    }
    if (route.kind === 'upload' && method === 'PUT' && route.digest !== undefined && isCreated(status)) {
      const bytes = toFinalBytes(sessions.get(route.uuid), entry.requestBytes);
      sessions.delete(route.uuid);
      return { kind: 'blob-write', reference: route.digest, bytes };
    }
    if (route.kind === 'upload-start' && method === 'POST' && route.digest !== undefined && route.mount === undefined && isCreated(status)) {
      return { kind: 'blob-write', reference: route.digest, bytes: entry.requestBytes };
    }
    if (route.kind === 'manifest' && method === 'PUT' && isCreated(status)) return { kind: 'manifest-write', reference: route.reference, bytes: entry.requestBytes };
    if (route.kind === 'manifest' && method === 'GET' && isServed(status)) return { kind: 'manifest-read', reference: route.reference, bytes: entry.responseBytes };
    if (route.kind === 'blob' && method === 'GET' && isServed(status)) return { kind: 'blob-read', reference: route.digest, bytes: entry.responseBytes };
    return { kind: 'other', ...(route.kind === 'blob' ? { reference: route.digest } : {}), ...(route.kind === 'manifest' ? { reference: route.reference } : {}), bytes: null };
  }

  return (entry) => {
    const route = parseRegistryPath(entry.path);
    const { kind, reference, bytes } = classify(entry, route);
    const repository = route.kind === 'other' ? undefined : route.repository;
    const isCache =
      repository !== undefined && (kind === 'manifest-write' || kind === 'manifest-read') && reference !== undefined
        ? matcher.isCacheManifest(repository, reference)
        : repository !== undefined && matcher.isCacheRepository(repository);
    return {
      tsMs: entry.tsMs,
      clientAddress: entry.clientAddress,
      method: entry.method,
      path: entry.path,
      status: entry.status,
      kind,
      repository,
      reference,
      bytes,
      durationMs: entry.durationMs,
      isCache,
    };
  };
}
