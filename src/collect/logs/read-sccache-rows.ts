// sccache (nginx log_format) lines through the native template scanner: it walks each line along the log_format's
// literals exactly as parse-nginx-line-bytes.ts does, decodes the numbers, times and the key path the record needs,
// and leaves them in one row per line. Here a row becomes the record's parts; a declined row, and the rare value
// the scanner cannot decide (a Content-Length it does not read as a count), go to the exact parser.
import type { SccacheRecord } from '../types.js';
import type { LineScanner, TemplateScannerSpec } from '../native/line-scanner.js';
import { Decode, Row, SccachePathFlag, TemplateRow } from '../native/scan-rows.js';
import type { SccacheRecordParts } from './classify-sccache.js';
import { createEmptySccacheParts, mayWriteSccache } from './classify-sccache.js';
import type { ChunkLineReader, LineOutcome } from './line-outcome.js';
import type { LogFormatSpec } from './parse-log-format.js';

/** Indices into the log_format's fields of what the record reads (-1: not in the format). */
export interface SccacheFieldIndices {
  msec: number;
  iso: number;
  address: number;
  method: number;
  uri: number;
  status: number;
  sent: number;
  length: number;
  time: number;
}

export interface SccacheChunkReaderOptions {
  scanner: LineScanner;
  spec: LogFormatSpec;
  at: SccacheFieldIndices;
  davRoot: string;
  toNodeRecord: (parts: SccacheRecordParts) => LineOutcome<SccacheRecord>;
  /** The exact parser, for declined lines (decoded as UTF-8). */
  parseLine: (line: string) => LineOutcome<SccacheRecord>;
  /** Rows per scan call; default 8192. */
  rowsPerScan?: number;
  /** For `recordsKept: 'writes'`: a line that cannot be a write is only counted, so its uri is not copied (''). */
  countedOnlyLean?: boolean;
}

const emptyBytes = Buffer.alloc(0);

/** What the scanner decodes each field as: only the fields the record reads are decoded. */
export function toTemplateScannerSpec(
  spec: LogFormatSpec,
  at: SccacheFieldIndices,
  davRoot: string,
): TemplateScannerSpec {
  const decoders: number[] = spec.fields.map(() => Decode.none);
  const decode = (index: number, decoder: number) => {
    if (index >= 0) decoders[index] = decoder;
  };
  if (at.msec >= 0) decode(at.msec, Decode.secondsMs);
  else decode(at.iso, Decode.rfc3339Ms);
  decode(at.address, Decode.intern);
  decode(at.method, Decode.intern);
  decode(at.uri, Decode.sccachePath);
  decode(at.status, Decode.count);
  decode(at.sent, Decode.count);
  decode(at.length, Decode.countOrNone);
  decode(at.time, Decode.secondsMs);
  return {
    literals: spec.literals.map((literal) => Buffer.from(literal, 'utf8')),
    quoted: spec.fields.map((field) => (field.quoted ? 1 : 0)),
    decoders,
    davRoot: Buffer.from(davRoot, 'utf8'),
  };
}

export function createSccacheChunkReader(options: SccacheChunkReaderOptions): ChunkLineReader<SccacheRecord> {
  const { scanner, at, toNodeRecord, parseLine } = options;
  const countedOnlyLean = options.countedOnlyLean === true;
  const handle = scanner.createTemplateScanner(toTemplateScannerSpec(options.spec, at, options.davRoot));
  const stride = TemplateRow.head + TemplateRow.fieldStride * options.spec.fields.length;
  const rows = new Float64Array(stride * (options.rowsPerScan ?? 8192));
  const names: string[] = [];
  let bytes: Buffer = emptyBytes;
  const parts = createEmptySccacheParts();

  /** Where field `index`'s slots start in the row at `row`. */
  const slot = (row: number, index: number) => row + TemplateRow.head + TemplateRow.fieldStride * index;
  const valueOf = (row: number, index: number) => rows[slot(row, index) + TemplateRow.value] ?? 0;
  const copy = (start: number, end: number) => bytes.toString('latin1', start, end);
  /** The interned string `id` (made on first sight from its span), or the span copied when the table was full. */
  const nameOf = (id: number, start: number, end: number) =>
    id < 0 ? copy(start, end) : (names[id] ??= copy(start, end));
  const internedValue = (row: number, index: number) => {
    const field = slot(row, index);
    return nameOf(
      rows[field + TemplateRow.value] ?? -1,
      rows[field + TemplateRow.fieldStart] ?? 0,
      rows[field + TemplateRow.fieldEnd] ?? 0,
    );
  };
  /** The field's value is empty (its span has no bytes). */
  const isEmpty = (row: number, index: number) => {
    const field = slot(row, index);
    return rows[field + TemplateRow.fieldEnd] === rows[field + TemplateRow.fieldStart];
  };
  const declined = (row: number) =>
    parseLine(bytes.toString('utf8', rows[row + Row.lineStart], rows[row + Row.lineEnd]));

  function outcome(index: number): LineOutcome<SccacheRecord> {
    const row = index * stride;
    if (rows[row + Row.accepted] !== 1) return declined(row);
    const tsMs = valueOf(row, at.msec >= 0 ? at.msec : at.iso);
    const length = valueOf(row, at.length);
    // A zero time is rejected, and a non-empty Content-Length that is not 1-15 digits is the exact parser's call.
    if (tsMs <= 0 || (length < 0 && !isEmpty(row, at.length))) return declined(row);
    const uri = slot(row, at.uri);
    const flags = rows[uri + TemplateRow.auxA] ?? 0;
    parts.tsMs = tsMs;
    parts.clientAddress = internedValue(row, at.address);
    parts.method = internedValue(row, at.method);
    parts.uri =
      countedOnlyLean && !mayWriteSccache(parts.method)
        ? ''
        : copy(rows[uri + TemplateRow.fieldStart] ?? 0, rows[uri + TemplateRow.fieldEnd] ?? 0);
    parts.status = valueOf(row, at.status);
    parts.sentBytes = valueOf(row, at.sent);
    parts.lengthBytes = length < 0 ? undefined : length;
    parts.keyPrefix =
      (flags & SccachePathFlag.hasPrefix) === 0
        ? undefined
        : nameOf(
            rows[uri + TemplateRow.value] ?? -1,
            rows[uri + TemplateRow.auxB] ?? 0,
            rows[uri + TemplateRow.auxC] ?? 0,
          );
    parts.isKey = (flags & SccachePathFlag.isKey) !== 0;
    parts.isCheck = (flags & SccachePathFlag.isCheck) !== 0;
    parts.durationMs = at.time >= 0 ? valueOf(row, at.time) : 0;
    return toNodeRecord(parts);
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
