// Zot session lines through the native scanner: it finds the lines of a chunk, checks each against the two layouts
// exactly as parse-zot-line-bytes.ts does, and leaves numbers, interned ids and spans in one row per line. Here a
// row becomes the entry (and, for plain blob, manifest and upload paths, the route) the record builder takes; a
// declined row goes to the exact parser. Strings are made once per interned id, or copied from the bytes.
import type { RegistryRecord } from '../types.js';
import type { LineScanner } from '../native/line-scanner.js';
import { Row, ZotMethod, ZotRoute, ZotRow, zotMethods } from '../native/scan-rows.js';
import type { ChunkLineReader, LineOutcome } from './line-outcome.js';
import type { RegistryRoute } from './parse-registry-path.js';
import { createEntry } from './parse-zot-line-bytes.js';
import type { EntryOutcome } from './create-registry-line-parser.js';

export interface ZotChunkReaderOptions {
  scanner: LineScanner;
  toEntryOutcome: EntryOutcome;
  /** The exact parser, for declined lines (decoded as UTF-8). */
  parseLine: (line: string) => LineOutcome<RegistryRecord>;
  /** Rows per scan call; default 8192. */
  rowsPerScan?: number;
  /**
   * For `recordsKept: 'writes'`: a line whose method cannot write becomes a scratch record that is only counted,
   * so its path and blob digest are not copied out of the chunk ('' in the record); what the summaries read
   * (repository, manifest reference, sizes, times, client) is still filled.
   */
  countedOnlyLean?: boolean;
}

const stride = ZotRow.stride;
const emptyBytes = Buffer.alloc(0);

export function createZotChunkReader(options: ZotChunkReaderOptions): ChunkLineReader<RegistryRecord> {
  const { scanner, toEntryOutcome, parseLine } = options;
  const countedOnlyLean = options.countedOnlyLean === true;
  const handle = scanner.createZotScanner();
  const rows = new Float64Array(stride * (options.rowsPerScan ?? 8192));
  const names: string[] = [];
  const entry = createEntry();
  let bytes: Buffer = emptyBytes;

  const copy = (start: number, end: number) => bytes.toString('latin1', start, end);
  /** The interned string `id` (made on first sight from its span), or the span copied when the table was full. */
  const nameOf = (id: number, start: number, end: number) =>
    id < 0 ? copy(start, end) : (names[id] ??= copy(start, end));

  // One route object per kind, overwritten by the next line: the record builder reads a route and keeps none.
  const blob = { kind: 'blob' as const, repository: '', digest: '' };
  const manifest = { kind: 'manifest' as const, repository: '', reference: '' };
  const upload = { kind: 'upload' as const, repository: '', uuid: '', digest: undefined };

  function toRoute(at: number, lean: boolean): RegistryRoute | undefined {
    const route = rows[at + ZotRow.route];
    if (route === ZotRoute.unknown) return undefined;
    const repository = nameOf(
      rows[at + ZotRow.nameId] ?? -1,
      rows[at + ZotRow.nameStart] ?? 0,
      rows[at + ZotRow.nameEnd] ?? 0,
    );
    if (lean && route === ZotRoute.blob) {
      blob.repository = repository;
      blob.digest = '';
      return blob;
    }
    // The reference lies inside the path: a slice of the path's copy when there is one, not a second copy.
    const refStart = rows[at + ZotRow.refStart] ?? 0;
    const refEnd = rows[at + ZotRow.refEnd] ?? 0;
    const pathStart = rows[at + ZotRow.pathStart] ?? 0;
    const ref = lean ? copy(refStart, refEnd) : entry.path.slice(refStart - pathStart, refEnd - pathStart);
    if (route === ZotRoute.blob) {
      blob.repository = repository;
      blob.digest = ref;
      return blob;
    }
    if (route === ZotRoute.manifest) {
      manifest.repository = repository;
      manifest.reference = ref;
      return manifest;
    }
    upload.repository = repository;
    upload.uuid = ref;
    return upload;
  }

  function outcome(index: number): LineOutcome<RegistryRecord> {
    const at = index * stride;
    if (rows[at + Row.accepted] !== 1)
      return parseLine(bytes.toString('utf8', rows[at + Row.lineStart], rows[at + Row.lineEnd]));
    const duration = rows[at + ZotRow.durationMs] ?? Number.NaN;
    const request = rows[at + ZotRow.requestBytes] ?? -1;
    entry.tsMs = rows[at + ZotRow.tsMs] ?? 0;
    entry.clientAddress = nameOf(
      rows[at + ZotRow.clientId] ?? -1,
      rows[at + ZotRow.clientStart] ?? 0,
      rows[at + ZotRow.clientEnd] ?? 0,
    );
    const method = rows[at + ZotRow.method] ?? 0;
    // Only lines whose route the scanner read can skip the path: the others are routed from it.
    const lean =
      countedOnlyLean &&
      method !== ZotMethod.put &&
      method !== ZotMethod.post &&
      rows[at + ZotRow.route] !== ZotRoute.unknown;
    entry.method = zotMethods[method] ?? '';
    entry.path = lean ? '' : copy(rows[at + ZotRow.pathStart] ?? 0, rows[at + ZotRow.pathEnd] ?? 0);
    entry.status = rows[at + ZotRow.status] ?? 0;
    entry.durationMs = Number.isNaN(duration) ? null : duration;
    entry.requestBytes = request < 0 ? null : request;
    entry.responseBytes = rows[at + ZotRow.responseBytes] ?? null;
    return toEntryOutcome(entry, toRoute(at, lean));
  }

  return {
    scan(chunk, from, to) {
      bytes = chunk;
      return scanner.scan(handle, chunk, from, to, rows);
    },
    lineNext: (index) => rows[index * stride + Row.next] ?? 0,
    outcome,
  };
}
