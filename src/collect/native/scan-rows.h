/* Row layouts the scanners write into a Float64Array, one row per line. src/collect/native/scan-rows.ts mirrors
 * these numbers for the TypeScript readers; test/unit/collect/native/scan-rows.test.ts reads this header and fails
 * when the two disagree. Offsets are byte offsets into the scanned Buffer. */
#ifndef ROCM_PERF_SCAN_ROWS_H
#define ROCM_PERF_SCAN_ROWS_H

/* Every row starts with these. */
#define ROW_LINE_START 0 /* first byte of the line */
#define ROW_LINE_END 1   /* end of the line without its newline and one trailing CR */
#define ROW_NEXT 2       /* just past the newline: where the next line starts */
#define ROW_ACCEPTED 3   /* 1: the scanner read the line (fields below are set); 0: declined, parse it in JS */

/* Zot session lines (slog and zerolog layouts). */
#define ZOT_TS_MS 4
#define ZOT_METHOD 5 /* ZOT_METHOD_* */
#define ZOT_STATUS 6
#define ZOT_DURATION_MS 7  /* NaN: the latency is not a Go duration (null) */
#define ZOT_RESPONSE_BYTES 8 /* bodySize */
#define ZOT_REQUEST_BYTES 9  /* Content-Length of the request; -1: null */
#define ZOT_CLIENT_ID 10     /* interned client IP (without port); -1: table full */
#define ZOT_CLIENT_START 11
#define ZOT_CLIENT_END 12
#define ZOT_PATH_START 13
#define ZOT_PATH_END 14
#define ZOT_ROUTE 15 /* ZOT_ROUTE_*; only for methods that cannot write (GET, HEAD, PATCH), else UNKNOWN */
#define ZOT_NAME_ID 16 /* interned repository name; -1: none or table full */
#define ZOT_NAME_START 17
#define ZOT_NAME_END 18
#define ZOT_REF_START 19 /* blob digest, manifest reference or upload uuid */
#define ZOT_REF_END 20
#define ZOT_STRIDE 21

#define ZOT_METHOD_GET 1
#define ZOT_METHOD_HEAD 2
#define ZOT_METHOD_PUT 3
#define ZOT_METHOD_POST 4
#define ZOT_METHOD_PATCH 5

#define ZOT_ROUTE_UNKNOWN 0 /* parse the path in JS */
#define ZOT_ROUTE_BLOB 1
#define ZOT_ROUTE_MANIFEST 2
#define ZOT_ROUTE_UPLOAD 3

/* Template lines (nginx log_format): per field, these slots after the row head. */
#define TPL_HEAD 4
#define TPL_FIELD_START 0
#define TPL_FIELD_END 1
#define TPL_FIELD_VALUE 2 /* the decoder's value */
#define TPL_FIELD_AUX_A 3
#define TPL_FIELD_AUX_B 4
#define TPL_FIELD_AUX_C 5
#define TPL_FIELD_STRIDE 6

/* What a template field's value is decoded as. */
#define DECODE_NONE 0     /* offsets only */
#define DECODE_INTERN 1   /* value: interned id (-1: table full) */
#define DECODE_COUNT_OR_NONE 2 /* value: 1-15 digits as a number, else -1 */
#define DECODE_COUNT 3    /* value: 1-15 digits as a number, else the line is declined */
#define DECODE_SECONDS_MS 4 /* `digits[.d{1,3}]` seconds → round(ms), else declined */
#define DECODE_RFC3339_MS 5 /* RFC 3339 time → epoch ms (fraction truncated), else declined */
#define DECODE_SCCACHE_PATH 6 /* value: key prefix id (-1: none); A: flags; B, C: prefix offsets */

#define SCCACHE_IS_KEY 1
#define SCCACHE_IS_CHECK 2
#define SCCACHE_HAS_PREFIX 4

#endif
