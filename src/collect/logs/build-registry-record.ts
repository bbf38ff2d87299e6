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

/** A record with every field present (one shape for new and scratch records), to be filled in. */
export const createEmptyRegistryRecord = (): RegistryRecord => ({
  tsMs: 0,
  clientAddress: '',
  method: '',
  path: '',
  status: 0,
  kind: 'other',
  repository: undefined,
  reference: undefined,
  bytes: null,
  durationMs: null,
  isCache: false,
});

/**
 * Builds the record of one entry: a new object, or `into` filled in place (a scratch record the caller reuses for
 * records it does not keep). `route` is parseRegistryPath(entry.path) when the caller has it already (the native
 * scanner reads plain paths itself); positional because this runs once per line.
 */
export type RegistryRecordBuilder = (
  entry: RegistryEntry,
  into?: RegistryRecord,
  route?: RegistryRoute,
) => RegistryRecord;

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

  // The classification of the current entry (one scratch object: the builder is synchronous).
  const found: { kind: RegistryKind; reference: string | undefined; bytes: number | null } = {
    kind: 'other',
    reference: undefined,
    bytes: null,
  };
  const classified = (kind: RegistryKind, reference: string | undefined, bytes: number | null) => {
    found.kind = kind;
    found.reference = reference;
    found.bytes = bytes;
    return found;
  };

  function classify(entry: RegistryEntry, route: RegistryRoute): typeof found {
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

  function classifyManifest(entry: RegistryEntry, reference: string): typeof found {
    if (entry.method === 'PUT' && isCreated(entry.status))
      return classified('manifest-write', reference, entry.requestBytes);
    if (entry.method === 'GET' && isServed(entry.status))
      return classified('manifest-read', reference, entry.responseBytes);
    return classified('other', reference, null);
  }

  return (entry, into, parsed) => {
    const route = parsed ?? parseRegistryPath(entry.path);
    const { kind, reference, bytes } = classify(entry, route);
    const repository = route.kind === 'other' ? undefined : route.repository;
    const isCache =
      repository !== undefined &&
      (kind === 'manifest-write' || kind === 'manifest-read') &&
      reference !== undefined
        ? matcher.isCacheManifest(repository, reference)
        : repository !== undefined && matcher.isCacheRepository(repository);
    const record = into ?? createEmptyRegistryRecord();
    record.tsMs = entry.tsMs;
    record.clientAddress = entry.clientAddress;
    record.method = entry.method;
    record.path = entry.path;
    record.status = entry.status;
    record.kind = kind;
    record.repository = repository;
    record.reference = reference;
    record.bytes = bytes;
    record.durationMs = entry.durationMs;
    record.isCache = isCache;
    return record;
  };
}
