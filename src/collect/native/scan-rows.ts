// The row layouts the native line scanners write (one Float64Array row per line), mirrored from scan-rows.h; the
// unit test scan-rows.test.ts reads the header and fails when a number here disagrees with it.

/** Every row starts with these. */
export const Row = {
  lineStart: 0,
  /** Without the newline and one trailing CR. */
  lineEnd: 1,
  /** Just past the newline. */
  next: 2,
  /** 1: read by the scanner; 0: declined (the JavaScript parsers read it). */
  accepted: 3,
} as const;

/** Zot session lines. */
export const ZotRow = {
  tsMs: 4,
  method: 5,
  status: 6,
  /** NaN: not a Go duration (null). */
  durationMs: 7,
  responseBytes: 8,
  /** -1: null. */
  requestBytes: 9,
  /** -1: the intern table is full (read the span). */
  clientId: 10,
  clientStart: 11,
  clientEnd: 12,
  pathStart: 13,
  pathEnd: 14,
  route: 15,
  nameId: 16,
  nameStart: 17,
  nameEnd: 18,
  refStart: 19,
  refEnd: 20,
  stride: 21,
} as const;

/** ZotRow.method codes → the method. */
export const zotMethods = ['', 'GET', 'HEAD', 'PUT', 'POST', 'PATCH'] as const;

/** ZotRow.method codes by name. */
export const ZotMethod = { get: 1, head: 2, put: 3, post: 4, patch: 5 } as const;

export const ZotRoute = { unknown: 0, blob: 1, manifest: 2, upload: 3 } as const;

/** Template (nginx log_format) rows: a head, then these slots per field. */
export const TemplateRow = {
  head: 4,
  fieldStart: 0,
  fieldEnd: 1,
  value: 2,
  auxA: 3,
  auxB: 4,
  auxC: 5,
  fieldStride: 6,
} as const;

/** What a template field is decoded as (DECODE_* in scan-rows.h). */
export const Decode = {
  none: 0,
  intern: 1,
  countOrNone: 2,
  count: 3,
  secondsMs: 4,
  rfc3339Ms: 5,
  sccachePath: 6,
} as const;

export const SccachePathFlag = { isKey: 1, isCheck: 2, hasPrefix: 4 } as const;

/** The C names of the numbers above, as scan-rows.h spells them (for the drift test). */
export function listRowConstants(): Record<string, number> {
  const entries: [string, number][] = [];
  const add = (prefix: string, table: Record<string, number>) => {
    for (const [key, value] of Object.entries(table))
      entries.push([`${prefix}${key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`, value]);
  };
  add('ROW_', Row);
  add('ZOT_', { ...ZotRow });
  zotMethods.forEach((method, code) => {
    if (method !== '') entries.push([`ZOT_METHOD_${method}`, code]);
  });
  add('ZOT_ROUTE_', ZotRoute);
  add('TPL_', {
    head: TemplateRow.head,
    fieldStart: TemplateRow.fieldStart,
    fieldEnd: TemplateRow.fieldEnd,
    fieldValue: TemplateRow.value,
    fieldAuxA: TemplateRow.auxA,
    fieldAuxB: TemplateRow.auxB,
    fieldAuxC: TemplateRow.auxC,
    fieldStride: TemplateRow.fieldStride,
  });
  add('DECODE_', Decode);
  add('SCCACHE_', SccachePathFlag);
  return Object.fromEntries(entries);
}
