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

interface Classified {
  kind: RegistryKind;
  reference: string | undefined;
  bytes: number | null;
}

const isCreated = (status: number) => status === 201;
const isServed = (status: number) => status === 200 || status === 206;

/** The size of a finalised upload: null when any chunk's size, or every chunk (none seen, PUT empty), is unknown. */
function toFinalBytes(session: UploadSession | undefined, own: number | null): number | null {
  if (own === null || session?.unknown === true) return null;
  if (session === undefined) return own > 0 ? own : null;
  return session.bytes + own;
}

/** Builds the record of one entry; the builder remembers upload sessions between entries. */
export type RegistryRecordBuilder = (entry: RegistryEntry) => RegistryRecord;

export function createRegistryRecordBuilder(options: RegistryRecordBuilderOptions): RegistryRecordBuilder {
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

  const classified = (kind: RegistryKind, reference: string | undefined, bytes: number | null) => ({
    kind,
    reference,
    bytes,
  });

  function classify(entry: RegistryEntry, route: RegistryRoute): Classified {
    const { method, status } = entry;
    if (route.kind === 'upload' && method === 'PATCH') {
      if (status === 202) addChunk(route.uuid, entry.requestBytes);
      return classified('other', undefined, entry.requestBytes);
    }
    if (route.kind === 'upload' && method === 'PUT' && route.digest !== undefined && isCreated(status)) {
      const bytes = toFinalBytes(sessions.get(route.uuid), entry.requestBytes);
      sessions.delete(route.uuid);
      return classified('blob-write', route.digest, bytes);
    }
    if (
      route.kind === 'upload-start' &&
      method === 'POST' &&
      route.digest !== undefined &&
      route.mount === undefined &&
      isCreated(status)
    ) {
      return classified('blob-write', route.digest, entry.requestBytes);
    }
    if (route.kind === 'manifest') return classifyManifest(entry, route.reference);
    if (route.kind === 'blob' && method === 'GET' && isServed(status))
      return classified('blob-read', route.digest, entry.responseBytes);
    return classified('other', route.kind === 'blob' ? route.digest : undefined, null);
  }

  function classifyManifest(entry: RegistryEntry, reference: string): Classified {
    if (entry.method === 'PUT' && isCreated(entry.status))
      return classified('manifest-write', reference, entry.requestBytes);
    if (entry.method === 'GET' && isServed(entry.status))
      return classified('manifest-read', reference, entry.responseBytes);
    return classified('other', reference, null);
  }

  return (entry) => {
    const route = parseRegistryPath(entry.path);
    const { kind, reference, bytes } = classify(entry, route);
    const repository = route.kind === 'other' ? undefined : route.repository;
    const isManifest = kind === 'manifest-write' || kind === 'manifest-read';
    const isCache =
      repository !== undefined &&
      (isManifest && reference !== undefined
        ? matcher.isCacheManifest(repository, reference)
        : matcher.isCacheRepository(repository));
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
